"""The labelled turn sets and secrets suites, scored as tests/data/README.md defines it."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
# The development set the rules are changed from, and the blind held-out set they never are.
SETS = {
    "development": [DATA / "turns.jsonl", *sorted((DATA / "dev").glob("*.jsonl"))],
    "held-out": sorted((DATA / "holdout").glob("turns*.jsonl")),
}
SECRET_SUITES = {
    "development": sorted((DATA / "secrets").glob("suite*.jsonl")),
    "held-out": [DATA / "holdout" / "secrets.jsonl"],
}

# The targets (issue 9), for both sets.
TARGETS = {
    "precision": 0.92,
    "recall": 0.85,
    "lookups": 1.0,
    "chatter": 0.95,
    "contradictions": 0.9,
    "credentials kept": 0,
    "credentials echoed": 0,
    "suite credentials leaked": 0,
    "suite adjacent lost": 0.05,
    "precision gap": 0.05,
}
# Where a set measures short of a target, its bar is the figure it measured when last scored: a
# ratchet that lets it only improve. The held-out set is never tuned on. The README lists these.
SHORTFALLS = {
    # Contradictions measured 0.900 after 22 batches, 0.891 after 28, 0.901 after 33 and 0.904
    # after 37: they hold the target again. Precision measured 0.886 after 26 batches, 0.877 after
    # 30 (d29, written to be full of questions and long mixed messages, cuts statements finer than
    # the rules do) and 0.880 after 37; chatter 0.932 after 37; lookups 1248 of 1249 (one
    # search-box query with no cue word: "kerberoasting detection event 4769 ...").
    "development": {
        "precision": 0.87,
        "lookups": 0.999,
        "chatter": 0.93,
        "suite credentials leaked": 2,
    },
    "held-out": {
        "lookups": 0.98,
        "suite credentials leaked": 5,
    },
}
BARS = {name: {**TARGETS, **SHORTFALLS[name]} for name in SHORTFALLS}
PRECISION_GAP = TARGETS["precision gap"]

_PUNCTUATION = re.compile(r"[^\w\s]")
_BLANKS = re.compile(r"\s+")
# Leading fillers are not part of a statement ("btw I live in Lisbon" is "I live in Lisbon").
_FILLERS = re.compile(
    r"^(?:(?:by the way|btw|also|oh and|and|anyway|anyways|fyi|so|ok|okay|lol|hey|oh|well|plus"
    r"|just so you know|for the record|reminder|again|note|ps|update)\s+)+"
)
_TRAILING_FILLERS = re.compile(
    r"(?:\s+(?:btw|lol|lmao|pls|please|thanks|thx|tbh|ngl|haha|ok|tho|though))+$"
)


def normalise(text: str) -> str:
    """Lowercase, drop punctuation and the fillers at either end, squeeze blanks."""
    plain = _BLANKS.sub(" ", _PUNCTUATION.sub("", text.lower())).strip()
    return _TRAILING_FILLERS.sub("", _FILLERS.sub("", plain))


def load_turns(name: str) -> list[dict]:
    """Return the turns of one set, each with its ``persona`` and ``lookup`` filled in."""
    turns = []
    for path in SETS[name]:
        for line in path.read_text(encoding="utf-8").splitlines():
            turn = json.loads(line)
            # The first sets predate personas and the lookup label: one persona a file, and a
            # turn whose items are rejected as questions is a lookup.
            turn.setdefault("persona", path.stem)
            rejected = turn["expected"]["rejected"]
            turn.setdefault("lookup", any(item["reason"] == "question" for item in rejected))
            turns.append(turn)
    return turns


def by_persona(turns: list[dict]) -> dict[str, list[dict]]:
    """Group turns by persona, keeping file order within each."""
    groups: dict[str, list[dict]] = {}
    for turn in turns:
        groups.setdefault(turn["persona"], []).append(turn)
    return groups


def load_secret_suite(name: str) -> list[dict]:
    """Return the items of one secrets suite (``credential`` and ``adjacent``)."""
    return [
        json.loads(line)
        for path in SECRET_SUITES[name]
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def is_chatter(turn: dict) -> bool:
    """Tell whether a turn holds nothing to learn and asks nothing."""
    return not turn["lookup"] and not turn["expected"]["stored"]


@dataclass
class Score:
    """Extractor figures over a set of turns; ``by_category`` holds (correct, stored, expected)."""

    stored: int = 0
    expected: int = 0
    correct: int = 0
    kinds: int = 0
    lookups: int = 0
    lookups_found: int = 0
    chatter: int = 0
    chatter_silent: int = 0
    rejections: int = 0
    reasons: int = 0
    by_category: Counter = field(default_factory=Counter)
    wrongly_stored: list[tuple[str, str]] = field(default_factory=list)
    missed: list[tuple[str, str]] = field(default_factory=list)
    missed_lookups: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.stored if self.stored else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0

    @property
    def lookup_rate(self) -> float:
        return self.lookups_found / self.lookups if self.lookups else 1.0

    @property
    def chatter_rate(self) -> float:
        return self.chatter_silent / self.chatter if self.chatter else 1.0

    def add(
        self,
        turn: dict,
        stored: list[tuple[str, str]],
        rejected: list[tuple[str, str]],
        lookup: bool,
    ) -> None:
        """Score one turn: ``stored`` and ``rejected`` are (content, kind or reason) pairs."""
        expected = list(turn["expected"]["stored"])
        category = turn.get("category", "")
        self.stored += len(stored)
        self.expected += len(expected)
        self.by_category[category, "stored"] += len(stored)
        self.by_category[category, "expected"] += len(expected)
        for content, kind in stored:
            match = next(
                (e for e in expected if normalise(e["content"]) == normalise(content)), None
            )
            if match is None:
                self.wrongly_stored.append((turn["id"], content))
                continue
            expected.remove(match)  # each expected statement can be matched once
            self.correct += 1
            self.by_category[category, "correct"] += 1
            self.kinds += match["kind"] == kind
        self.missed += [(turn["id"], item["content"]) for item in expected]
        if turn["lookup"]:
            self.lookups += 1
            self.lookups_found += lookup
            if not lookup:
                self.missed_lookups.append(turn["id"])
        if is_chatter(turn):
            self.chatter += 1
            self.chatter_silent += not stored
        shown = {(normalise(content), reason) for content, reason in rejected}
        for item in turn["expected"]["rejected"]:
            self.rejections += 1
            self.reasons += (normalise(item["content"]), item["reason"]) in shown

    def report(self, name: str) -> str:
        lines = [
            f"{name}: precision {self.precision:.3f} ({self.correct}/{self.stored}),"
            f" recall {self.recall:.3f} ({self.correct}/{self.expected}),"
            f" lookups {self.lookup_rate:.3f} ({self.lookups_found}/{self.lookups}),"
            f" chatter turns storing nothing {self.chatter_rate:.3f}"
            f" ({self.chatter_silent}/{self.chatter}),"
            f" reason agreement {self.reasons / max(1, self.rejections):.3f},"
            f" kind agreement {self.kinds / max(1, self.correct):.3f}"
        ]
        categories = sorted({category for category, _ in self.by_category})
        for category in categories:
            correct, stored, expected = (
                self.by_category[category, part] for part in ("correct", "stored", "expected")
            )
            lines.append(
                f"  {category or '-':<13} stored {stored:>4}  correct {correct:>4}"
                f"  expected {expected:>4}"
            )
        return "\n".join(lines)
