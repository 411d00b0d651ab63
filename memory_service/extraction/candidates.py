"""What an extractor answers: candidates to store and rejections, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass, field

FACT, PREFERENCE, INSTRUCTION, LESSON, PATTERN = (
    "fact",
    "preference",
    "instruction",
    "lesson",
    "pattern",
)
KINDS = (FACT, PREFERENCE, INSTRUCTION, LESSON, PATTERN)

# The closed vocabulary of rejection reasons (decisions.md, "Turns").
SMALL_TALK = "small talk"
TOO_VAGUE = "too vague"
TOO_LONG = "too long"
QUESTION = "question"
HYPOTHETICAL = "hypothetical"
TRANSIENT = "transient"
SECRET = "secret"  # noqa: S105 - a reason, not a password
REASONS = (SMALL_TALK, TOO_VAGUE, TOO_LONG, QUESTION, HYPOTHETICAL, TRANSIENT, SECRET)


@dataclass(frozen=True)
class Candidate:
    """A durable statement worth storing, in the user's own words."""

    content: str
    kind: str
    subject: str | None = None


@dataclass(frozen=True)
class Rejection:
    """A candidate that is not stored, and why; ``content`` never holds a secret."""

    content: str
    reason: str


@dataclass
class Extraction:
    """The outcome of reading one user message.

    ``lookup`` is true when the message asks a question: then nothing is stored and every candidate
    is under ``rejected`` with the reason ``question``.
    """

    candidates: list[Candidate] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    lookup: bool = False
