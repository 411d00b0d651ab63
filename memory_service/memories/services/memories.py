"""Writes to memories one request asks for: storing statements outright, moving, forgetting."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import SECRET, Candidate, Rejection
from memory_service.extraction.secrets import contains_secret, redact
from memory_service.extraction.subjects import subject_of
from memory_service.memories.models import DIRECT, Memory
from memory_service.memories.retry import retry_on_conflict
from memory_service.memories.services.batch import Origin, StoreOutcome, candidates_store
from memory_service.recall.index import reindex, unindex


@dataclass(frozen=True)
class Statement:
    """One statement of a direct store, as the caller sent it."""

    content: str
    kind: str | None = None
    tier: str | None = None
    domain: str = ""
    subject: str = ""  # the admin may name it; otherwise the rules read it from the content


def memories_store(
    *, org: Organisation, statements: list[Statement], session_id: str = "", now: datetime
) -> StoreOutcome:
    """Store statements outright (restatements fold into held memories); secrets are refused."""
    rejected: list[Rejection] = []
    items: list[tuple[Candidate, Origin]] = []
    for statement in statements:
        if contains_secret(statement.content):
            rejected.append(Rejection(redact(statement.content), SECRET))
            continue
        subject = statement.subject or subject_of(statement.content)
        candidate = Candidate(statement.content, statement.kind or "fact", subject)
        origin = Origin(
            source=DIRECT, session_id=session_id, domain=statement.domain, tier=statement.tier
        )
        items.append((candidate, origin))

    @retry_on_conflict
    def write() -> StoreOutcome:
        outcome = StoreOutcome(rejected=list(rejected))
        with transaction.atomic():
            candidates_store(org=org, items=items, outcome=outcome, now=now)
        return outcome

    return write()


@transaction.atomic
def memory_move(*, org: Organisation, memory_id: str, tier: str, now: datetime) -> Memory:
    """Move one of ``org``'s memories to ``tier``."""
    memory = _locked(org, memory_id)
    if memory.tier != tier:
        memory.tier = tier
        memory.updated_at = now
        memory.save(update_fields=["tier", "updated_at"])
    return memory


@transaction.atomic
def memory_forget(*, org: Organisation, memory_id: str) -> Memory:
    """Delete one of ``org``'s memories, its index entries and the tensions it is part of."""
    memory = _locked(org, memory_id)
    unindex(org_id=org.pk, memory_id=memory.id)
    memory.delete()
    memory.id = memory_id  # delete() clears the primary key; the answer still names it
    return memory


@transaction.atomic
def memory_edit(
    *,
    org: Organisation,
    memory_id: str,
    kind: str,
    tier: str,
    subject: str,
    domain: str,
    now: datetime,
) -> Memory:
    """Change what the admin may change of one of ``org``'s memories; the tier as a move does."""
    memory = memory_move(org=org, memory_id=memory_id, tier=tier, now=now)
    new = {"kind": kind, "subject": subject, "domain": domain}
    changed = [name for name, value in new.items() if getattr(memory, name) != value]
    if changed:
        for name in changed:
            setattr(memory, name, new[name])
        memory.updated_at = now
        memory.save(update_fields=[*changed, "updated_at"])
    if {"subject", "domain"} & set(changed):
        reindex(memory.recall_entry())
    return memory


def _locked(org: Organisation, memory_id: str) -> Memory:
    memory = Memory.objects.select_for_update().for_org(org).filter(pk=memory_id).first()
    if memory is None:
        raise errors.NotFound(resource="memory", id=memory_id)
    return memory
