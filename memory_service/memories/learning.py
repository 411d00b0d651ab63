"""Learning from a finished turn, and storing statements outright."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import SECRET, Candidate, Rejection
from memory_service.extraction.model import model_candidates
from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import contains_secret, redact
from memory_service.extraction.subjects import subject_of
from memory_service.memories.models import DIRECT, TURN, Turn
from memory_service.memories.normalise import fingerprint
from memory_service.memories.retry import retry_on_conflict
from memory_service.memories.services import Filing, Origin, memories_file


@dataclass(frozen=True)
class Statement:
    """One statement of a direct store, as the caller sent it."""

    content: str
    kind: str | None = None
    tier: str | None = None
    domain: str = ""


def turn_learn(
    *,
    org: Organisation,
    user_message: str,
    assistant_response: str,
    session_id: str = "",
    now: datetime,
) -> tuple[Turn, Filing]:
    """Extract candidates from a finished turn, file the durable ones, keep the transcript."""
    extraction = extract(user_message)
    filing = Filing(rejected=list(extraction.rejected))
    candidates = list(extraction.candidates)
    if not extraction.lookup:
        # Before the transaction: a slow provider must not hold the database's locks.
        candidates += _model_extras(user_message, assistant_response, candidates, filing)

    @retry_on_conflict
    def write() -> tuple[Turn, Filing]:
        result = Filing(rejected=list(filing.rejected))
        with transaction.atomic():
            turn = Turn.objects.create(
                organisation=org,
                session_id=session_id,
                user_message=redact(user_message),
                assistant_response=redact(assistant_response),
                lookup=extraction.lookup,
                created_at=now,
            )
            origin = Origin(source=TURN, session_id=session_id)
            items = [(candidate, origin) for candidate in candidates]
            memories_file(org=org, items=items, filing=result, now=now)
            turn.counts = result.counts()
            turn.save(update_fields=["counts"])
        return turn, result

    return write()


def _model_extras(
    user_message: str, assistant_response: str, held: list[Candidate], filing: Filing
) -> list[Candidate]:
    """Return the model's candidates that the rules did not already find, secrets rejected."""
    found = model_candidates(user_message, assistant_response)
    if not found:
        return []
    known = {fingerprint(candidate.content) for candidate in held}
    extras = []
    for candidate in found:
        if contains_secret(candidate.content):
            filing.rejected.append(Rejection(redact(candidate.content), SECRET))
        elif fingerprint(candidate.content) not in known:
            known.add(fingerprint(candidate.content))
            subject = candidate.subject or subject_of(candidate.content)
            extras.append(Candidate(candidate.content, candidate.kind, subject))
    return extras


def memories_store(
    *, org: Organisation, statements: list[Statement], session_id: str = "", now: datetime
) -> Filing:
    """Store statements outright (restatements fold into held memories); secrets are refused."""
    rejected: list[Rejection] = []
    items: list[tuple[Candidate, Origin]] = []
    for statement in statements:
        if contains_secret(statement.content):
            rejected.append(Rejection(redact(statement.content), SECRET))
            continue
        subject = subject_of(statement.content)
        candidate = Candidate(statement.content, statement.kind or "fact", subject)
        origin = Origin(
            source=DIRECT, session_id=session_id, domain=statement.domain, tier=statement.tier
        )
        items.append((candidate, origin))

    @retry_on_conflict
    def write() -> Filing:
        filing = Filing(rejected=list(rejected))
        with transaction.atomic():
            memories_file(org=org, items=items, filing=filing, now=now)
        return filing

    return write()
