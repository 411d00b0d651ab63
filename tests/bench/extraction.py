"""Time the rules extractor on the longest messages a client may send, shaped to be slow.

``make bench-extraction`` (in-process, no server): each message is 20,000 characters (the turn
limit). The baseline is plain prose of the same length, timed in the same run; a shape that is far
above it is a pattern gone quadratic, which a client could use to tie up a worker.
"""

from __future__ import annotations

import argparse
import random
import statistics
import string
import time

from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import redact

LENGTH = 20_000


def _fill(unit: str) -> str:
    return (unit * (LENGTH // len(unit) + 1))[:LENGTH]


def messages(seed: int) -> dict[str, str]:
    """Return the baseline and the adversarial messages, each ``LENGTH`` characters long."""
    rng = random.Random(seed)
    words = ["password", "is", "the", "code", "4471", "my", "pin", "for", "login", "/", ":", "I"]
    return {
        "baseline: prose": _fill("I keep my notes in Obsidian and run every morning. "),
        "cues: 'password is'": _fill("password is "),
        "cues: 'pw:'": _fill("pw: "),
        "cues and values mixed": " ".join(rng.choice(words) for _ in range(LENGTH // 4))[:LENGTH],
        "one long token of key groups": _fill("ABCD-"),
        "pasted table of passwords": "name,password\n" + _fill("a,b\n"),
        "list under a cue line": "codes:\n" + _fill("ab12\n"),
        "key: value lines": _fill("x: y\n"),
        "spelling": _fill("capital a, lowercase b, "),
        "emoji": _fill("\U0001f602 "),
        "quotes": _fill("'"),
        "random printable": "".join(rng.choice(string.printable) for _ in range(LENGTH)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5, help="timed runs per message")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    results = {}
    for name, text in messages(args.seed).items():
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            extract(text)
            redact(text)
            times.append(time.perf_counter() - start)
        results[name] = statistics.median(times)
    baseline = results["baseline: prose"]
    print(f"extract + redact, {LENGTH:,}-character messages, median of {args.rounds} runs")
    for name, seconds in results.items():
        print(f"{name:32} {seconds * 1000:8.1f} ms  {seconds / baseline:5.1f} x baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
