"""One line per check: its verdict and the figures it was judged on."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

# A check returns whether its claim held and the figures it was judged on.
Check = Callable[[], tuple[bool, str]]


@dataclass(frozen=True)
class Verdict:
    claim: str
    held: bool
    figures: str
    seconds: float

    def line(self) -> str:
        verdict = "PASS" if self.held else "FAIL"
        return f"{verdict}  {self.claim} ({self.seconds:.1f} s): {self.figures}"


def judged(claim: str, check: Check) -> Verdict:
    """Run ``check``; an exception is a failed check (with its cause), not the end of the run,
    so that every claim gets its line."""
    started = time.perf_counter()
    try:
        held, figures = check()
    except Exception as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{last.filename.rpartition('/')[2]}:{last.lineno}"
        held, figures = False, f"raised {type(exc).__name__} at {where}: {exc}"
    return Verdict(claim, held, figures, time.perf_counter() - started)


def weighed(facts: list[str], problems: list[str]) -> tuple[bool, str]:
    """A check's outcome: it held when nothing was wrong; the figures say what was seen, then
    what was wrong."""
    figures = "; ".join(facts)
    return not problems, figures + (f" -- WRONG: {'; '.join(problems)}" if problems else "")
