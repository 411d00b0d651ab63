"""Deciding what to learn from a finished turn; nothing here writes (``services.turns`` does)."""

from __future__ import annotations

from dataclasses import dataclass

from memory_service.extraction.candidates import SECRET, Candidate, Rejection
from memory_service.extraction.model import model_candidates
from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import contains_secret, redact
from memory_service.extraction.subjects import subject_of
from memory_service.memories.normalise import fingerprint


@dataclass(frozen=True)
class TurnCandidates:
    """What a turn offers to learn, what it offered that is refused, and whether it only asked."""

    candidates: list[Candidate]
    rejected: list[Rejection]
    lookup: bool


def turn_candidates(user_message: str, assistant_response: str) -> TurnCandidates:
    """Return the rules' candidates of a turn and, unless it is a lookup, the model's extras.

    Call it outside any transaction: a slow model provider must not hold the database's locks.
    """
    extraction = extract(user_message)
    candidates = list(extraction.candidates)
    rejected = list(extraction.rejected)
    if not extraction.lookup:
        candidates += _model_extras(user_message, assistant_response, candidates, rejected)
    return TurnCandidates(candidates=candidates, rejected=rejected, lookup=extraction.lookup)


def _model_extras(
    user_message: str,
    assistant_response: str,
    rules_found: list[Candidate],
    rejected: list[Rejection],
) -> list[Candidate]:
    """Return the model's candidates that the rules did not already find, secrets rejected."""
    found = model_candidates(user_message, assistant_response)
    if not found:
        return []
    known = {fingerprint(candidate.content) for candidate in rules_found}
    extras = []
    for candidate in found:
        if contains_secret(candidate.content):
            rejected.append(Rejection(redact(candidate.content), SECRET))
        elif fingerprint(candidate.content) not in known:
            known.add(fingerprint(candidate.content))
            subject = candidate.subject or subject_of(candidate.content)
            extras.append(Candidate(candidate.content, candidate.kind, subject))
    return extras
