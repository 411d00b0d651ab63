"""Laying lines out under a token ceiling: sections in order, whole lines, the lowest cut first.

Pure arithmetic on text, so that the rules are tested without a database: a line goes in when
the block with it stays under the ceiling; the first line that does not fit is cut, and with it
every line after it, so a lower section always loses its lines before a higher one loses any.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memory_service.context import tokens

GUARDRAILS, CORE, INDEX, TRIGGERED = "guardrails", "core", "index", "triggered"
SECTIONS = (GUARDRAILS, CORE, INDEX, TRIGGERED)

# Every line break there is, so that one memory is always one line of the block.
_BREAKS = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    """One line the block may hold, and its account: the memory or domain it is from, and why."""

    text: str
    section: str
    reason: str
    memory_id: str | None = None
    domain: str | None = None


@dataclass(frozen=True)
class Entry:
    """A line the block holds, with its own token count."""

    line: str
    section: str
    reason: str
    tokens: int
    memory_id: str | None = None
    domain: str | None = None


@dataclass(frozen=True)
class Block:
    text: str
    entries: list[Entry]
    total_tokens: int
    truncated: bool


def one_line(text: str) -> str:
    """Return ``text`` with every run of whitespace, line breaks included, as one space."""
    return _BREAKS.sub(" ", text).strip()


def assemble(
    lines: Iterable[Line], *, ceiling: int, count: Callable[[str], int] = tokens.count
) -> Block:
    """Return the block of as many of ``lines``, in order, as fit in ``ceiling`` tokens.

    ``lines`` is read lazily: nothing after the first line that does not fit is asked for.
    """
    kept: list[Entry] = []
    used = 0  # the lines' own counts and one token per line break
    truncated = False
    for line in lines:
        text = one_line(line.text)
        if not text:
            continue
        cost = count(text)
        if used + cost + bool(kept) > ceiling:
            truncated = True
            break
        used += cost + bool(kept)
        kept.append(Entry(text, line.section, line.reason, cost, line.memory_id, line.domain))
    text = "\n".join(entry.line for entry in kept)
    total = count(text)
    # A line break can merge with the punctuation before it, so the block's own count may
    # differ from the sum; it is the block's count that must stay under the ceiling.
    while total > ceiling:
        kept.pop()
        truncated = True
        text = "\n".join(entry.line for entry in kept)
        total = count(text)
    return Block(text=text, entries=kept, total_tokens=total, truncated=truncated)
