"""Writes to memories: filing a statement (stored, merged or contradicting), moves, forgetting.

Every function here runs inside the caller's transaction. Filing locks the memory it merges into
(``select_for_update``) and relies on the unique (organisation, fingerprint) index when two
requests race to store the same statement: the loser's insert fails and it merges instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, transaction

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import Candidate, Rejection
from memory_service.memories.models import CORE, TURN, WORKING, Memory
from memory_service.memories.normalise import fingerprint
from memory_service.memories.reconcile import (
    CONTRADICT,
    MERGE,
    Relation,
    corrected_memory,
    reads_as_correction,
    related_memory,
)
from memory_service.recall.index import Entry, index_entries, unindex
from memory_service.tensions.models import Tension

# A working memory stated in this many separate turns is promoted to core.
PROMOTE_AFTER_TURNS = 3


@dataclass
class Filing:
    """What filing a batch of statements did: the counts of the turn result, and the memories."""

    stored: int = 0
    merged: int = 0
    tensions: int = 0
    promoted: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    memories: list[Memory] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {
            "stored": self.stored,
            "merged": self.merged,
            "rejected": len(self.rejected),
            "tensions": self.tensions,
            "promoted": self.promoted,
        }


@dataclass(frozen=True)
class Origin:
    """Where statements come from: ``source``, the session, and whether a turn stated them."""

    source: str
    session_id: str = ""
    domain: str = ""
    tier: str | None = None  # an explicit tier from a direct store
    # Whether to compare with what is held on the subject. A lesson settling a tension quotes
    # both sides, correction words included: it restates nothing and contradicts nothing.
    reconcile: bool = True


def memories_file(
    *,
    org: Organisation,
    items: list[tuple[Candidate, Origin]],
    filing: Filing,
    now: datetime,
) -> Filing:
    """File each candidate, from its origin, against what ``org`` holds; add to ``filing``."""
    prints = [fingerprint(candidate.content) for candidate, _ in items]
    filed: dict[int, Memory] = {}
    seen: set[str] = set()
    # New memories enter the recall index together, in one pass over its blocks, at the end (or
    # before a correction looks for what it corrects, which reads the index).
    unindexed: list[Entry] = []
    # Filing in fingerprint order makes concurrent requests that share statements take their row
    # locks in one order, so that they queue behind each other instead of deadlocking. The held
    # ones are locked in that order up front, in one read; each memory filed or merged since
    # replaces its entry, so a later statement of the batch sees it as it now is.
    held = {
        memory.fingerprint: memory
        for memory in Memory.objects.select_for_update()
        .filter(organisation=org, fingerprint__in=set(prints))
        .order_by("fingerprint")
    }
    for index in sorted(range(len(items)), key=lambda i: (prints[i], i)):
        candidate, origin = items[index]
        filed[index] = _file_one(
            org=org,
            candidate=candidate,
            held=held.get(prints[index]),
            print_=prints[index],
            origin=origin,
            # A statement repeated within one turn is one turn's worth towards promotion.
            new_turn=origin.source == TURN and prints[index] not in seen,
            filing=filing,
            now=now,
            unindexed=unindexed,
        )
        held[filed[index].fingerprint] = filed[index]
        seen.add(prints[index])
    _index(unindexed)
    for index in range(len(items)):
        if filed[index] not in filing.memories:
            filing.memories.append(filed[index])
    return filing


def _file_one(
    *,
    org: Organisation,
    candidate: Candidate,
    held: Memory | None,
    print_: str,
    origin: Origin,
    new_turn: bool,
    filing: Filing,
    now: datetime,
    unindexed: list[Entry],
) -> Memory:
    """File one candidate; ``held`` is the locked memory of its fingerprint, if there is one."""
    if held is not None:
        return _merge(held, origin=origin, new_turn=new_turn, filing=filing, now=now)
    relation = None
    if origin.reconcile:
        relation = related_memory(
            org=org, content=candidate.content, subject=candidate.subject or ""
        )
    if relation is None and origin.reconcile and reads_as_correction(candidate.content):
        # No subject, or one nothing is held on: a correction still names what it corrects
        # ("Kofi's my sous chef these days, Dani left" corrects "Sous chef is Dani").
        _index(unindexed)  # it finds what it corrects through the index
        corrected = corrected_memory(org=org, content=candidate.content)
        if corrected is not None:
            # The correction is about what it corrects: it takes that memory's subject.
            candidate = Candidate(candidate.content, candidate.kind, corrected.subject or None)
            relation = Relation(CONTRADICT, corrected)
    if relation is not None and relation.action == MERGE:
        held = Memory.objects.select_for_update().get(pk=relation.memory.pk)
        return _merge(held, origin=origin, new_turn=new_turn, filing=filing, now=now)
    try:
        with transaction.atomic():  # a savepoint: a racing twin's insert may win
            memory = Memory.objects.create(
                organisation=org,
                content=candidate.content,
                fingerprint=print_,
                kind=candidate.kind,
                tier=origin.tier or WORKING,
                subject=candidate.subject or "",
                domain=origin.domain,
                source=origin.source,
                session_id=origin.session_id,
                turns_seen=1 if new_turn else 0,
                created_at=now,
                updated_at=now,
            )
    except IntegrityError:
        held = Memory.objects.select_for_update().get(organisation=org, fingerprint=print_)
        return _merge(held, origin=origin, new_turn=new_turn, filing=filing, now=now)
    unindexed.append(memory.recall_entry())
    filing.stored += 1
    if relation is not None and relation.action == CONTRADICT:
        _open_tension(org=org, older=relation.memory, newer=memory, now=now)
        filing.tensions += 1
    return memory


def _index(entries: list[Entry]) -> None:
    if entries:
        index_entries(entries)
        entries.clear()


def _merge(
    memory: Memory, *, origin: Origin, new_turn: bool, filing: Filing, now: datetime
) -> Memory:
    """Count a restatement of the locked ``memory``, promoting it on its third separate turn."""
    memory.times_seen += 1
    memory.updated_at = now
    changed = ["times_seen", "updated_at"]
    if new_turn:
        memory.turns_seen += 1
        changed.append("turns_seen")
        if memory.tier == WORKING and memory.turns_seen >= PROMOTE_AFTER_TURNS:
            memory.tier = CORE
            changed.append("tier")
            filing.promoted += 1
    elif origin.tier and origin.tier != memory.tier:
        memory.tier = origin.tier  # an explicit tier in a direct store wins
        changed.append("tier")
    memory.save(update_fields=changed)
    filing.merged += 1
    return memory


def _open_tension(*, org: Organisation, older: Memory, newer: Memory, now: datetime) -> Tension:
    subject = newer.subject
    return Tension.objects.create(
        organisation=org,
        older=older,
        newer=newer,
        description=f"On {subject}: “{newer.content}” contradicts “{older.content}”.",
        created_at=now,
    )


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


def _locked(org: Organisation, memory_id: str) -> Memory:
    memory = Memory.objects.select_for_update().for_org(org).filter(pk=memory_id).first()
    if memory is None:
        raise errors.NotFound(resource="memory", id=memory_id)
    return memory
