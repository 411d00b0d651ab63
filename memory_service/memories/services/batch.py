"""Storing a batch of statements against what is held: new, merged or contradicting.

Every function here runs inside the caller's transaction. Storing is set-based, so a batch of a
hundred statements costs a handful of statements rather than a few hundred: it reads what the
batch is compared with in two queries (the memories its fingerprints name, locked, and the newest
held on each of its subjects), decides each statement in memory, in order, as if the ones before
it were already written, and writes together: one insert of the new memories, one update of the
restated ones, one insert of tensions, one pass over the recall index. A restated memory is
locked before its counts are written and they are added to what the locked row holds, so a
concurrent restatement is never lost. When two requests race to store the same new statement,
the unique (organisation, fingerprint) index fails the slower insert and ``Conflict`` runs its
write again, which then finds the winner's memory and merges into it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from operator import attrgetter

from django.db import IntegrityError

from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import Candidate, Rejection
from memory_service.memories.models import ARCHIVE, CORE, TURN, WORKING, Memory
from memory_service.memories.normalise import fingerprint
from memory_service.memories.reconcile import (
    CONTRADICT,
    MAX_COMPARED,
    MERGE,
    Relation,
    corrected_memory,
    reads_as_correction,
    related_memory,
)
from memory_service.memories.retry import Conflict
from memory_service.recall.index import index_entries
from memory_service.tensions.models import Tension

# A working memory stated in this many separate turns is promoted to core.
PROMOTE_AFTER_TURNS = 3


@dataclass
class StoreOutcome:
    """What storing a batch of statements did: the counts of the turn result, and the memories."""

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


def candidates_store(
    *,
    org: Organisation,
    items: list[tuple[Candidate, Origin]],
    outcome: StoreOutcome,
    now: datetime,
) -> StoreOutcome:
    """Store each candidate, from its origin, against what ``org`` holds; add to ``outcome``."""
    fingerprints = [fingerprint(candidate.content) for candidate, _ in items]
    # Rows are locked in fingerprint order, here and when the batch is written, so that
    # concurrent requests sharing statements queue behind each other instead of deadlocking.
    by_fingerprint = {
        memory.fingerprint: memory
        for memory in Memory.objects.select_for_update()
        .filter(organisation=org, fingerprint__in=set(fingerprints))
        .order_by("fingerprint")
    }
    batch = _Batch(org=org, now=now, outcome=outcome, known=by_fingerprint.values())
    batch.read_subjects(items)
    results: list[Memory] = []
    seen: set[str] = set()
    for index, (candidate, origin) in enumerate(items):
        memory = batch.store(
            candidate,
            identical=by_fingerprint.get(fingerprints[index]),
            content_fingerprint=fingerprints[index],
            origin=origin,
            # A statement repeated within one turn is one turn's worth towards promotion.
            new_turn=origin.source == TURN and fingerprints[index] not in seen,
        )
        by_fingerprint[memory.fingerprint] = memory
        results.append(memory)
        seen.add(fingerprints[index])
    batch.write()
    answered = {memory.pk for memory in outcome.memories}
    for memory in results:
        if memory.pk not in answered:
            answered.add(memory.pk)
            outcome.memories.append(memory)
    return outcome


class _Batch:
    """A batch of statements decided in memory and written together (see the module's doc)."""

    def __init__(
        self, *, org: Organisation, now: datetime, outcome: StoreOutcome, known: Iterable[Memory]
    ) -> None:
        self.org, self.now, self.outcome = org, now, outcome
        # One instance per memory, so that every statement of the batch sees the others' effect.
        self.known: dict[str, Memory] = {memory.pk: memory for memory in known}
        # Per subject, what is held there, newest first (what the batch touched at the front).
        self.on_subject: dict[str, list[Memory]] = {}
        self.new: dict[str, Memory] = {}
        # Held memories restated, and how, to be counted on the rows as they are once locked.
        self.restated: dict[str, list[tuple[str | None, bool]]] = {}
        self.tensions: list[Tension] = []

    def read_subjects(self, items: list[tuple[Candidate, Origin]]) -> None:
        """Read the newest memories outside the archive on each subject the batch compares."""
        subjects = sorted({c.subject for c, origin in items if c.subject and origin.reconcile})
        if not subjects:
            return
        # Statements moving a memory to the archive can push older ones into the newest few.
        per_subject = MAX_COMPARED + sum(origin.tier == ARCHIVE for _, origin in items)
        for memory in Memory.objects.raw(*_newest_on(self.org, subjects, per_subject)):
            memory = self.known.setdefault(memory.pk, memory)
            self.on_subject.setdefault(memory.subject, []).append(memory)

    def compared_on(self, subject: str) -> list[Memory]:
        """Return what a statement on ``subject`` is compared with: the newest not archived."""
        newest = self.on_subject.get(subject, [])
        return [memory for memory in newest if memory.tier != ARCHIVE][:MAX_COMPARED]

    def store(
        self,
        candidate: Candidate,
        *,
        identical: Memory | None,
        content_fingerprint: str,
        origin: Origin,
        new_turn: bool,
    ) -> Memory:
        """Store one candidate; ``identical`` is the memory of its fingerprint, if there is one."""
        if identical is not None:
            return self.restate(identical, origin=origin, new_turn=new_turn)
        relation = None
        if origin.reconcile:
            subject = candidate.subject or ""
            relation = related_memory(
                compared=self.compared_on(subject), content=candidate.content, subject=subject
            )
        if relation is None and origin.reconcile and reads_as_correction(candidate.content):
            # No subject, or one nothing is held on: a correction still names what it corrects
            # ("Kofi's my sous chef these days, Dani left" corrects "Sous chef is Dani").
            self.write()  # it finds what it corrects through the index
            corrected = corrected_memory(org=self.org, content=candidate.content)
            if corrected is not None:
                # The correction is about what it corrects: it takes that memory's subject.
                # A subject-less memory leaves the correction its own subject.
                own_subject = corrected.subject or candidate.subject
                candidate = Candidate(candidate.content, candidate.kind, own_subject)
                relation = Relation(CONTRADICT, self.known.setdefault(corrected.pk, corrected))
        if relation is not None and relation.action == MERGE:
            return self.restate(relation.memory, origin=origin, new_turn=new_turn)
        memory = Memory(
            organisation=self.org,
            content=candidate.content,
            fingerprint=content_fingerprint,
            kind=candidate.kind,
            tier=origin.tier or WORKING,
            subject=candidate.subject or "",
            domain=origin.domain,
            source=origin.source,
            session_id=origin.session_id,
            turns_seen=1 if new_turn else 0,
            created_at=self.now,
            updated_at=self.now,
        )
        self.new[memory.pk] = self.known[memory.pk] = memory
        self._touched(memory)
        self.outcome.stored += 1
        if relation is not None and relation.action == CONTRADICT:
            self.tensions.append(
                _tension(self.org, older=relation.memory, newer=memory, now=self.now)
            )
            self.outcome.tensions += 1
        return memory

    def restate(self, memory: Memory, *, origin: Origin, new_turn: bool) -> Memory:
        """Count a restatement of ``memory``: now if the batch stores it, else once it is locked."""
        promoted = _restate(memory, tier=origin.tier, new_turn=new_turn, now=self.now)
        if memory.pk in self.new:
            self.outcome.promoted += promoted
        else:
            self.restated.setdefault(memory.pk, []).append((origin.tier, new_turn))
        self.outcome.merged += 1
        self._touched(memory)
        return memory

    def _touched(self, memory: Memory) -> None:
        """Put ``memory`` first on its subject: the batch just stored or restated it."""
        if memory.subject in self.on_subject:
            newest = self.on_subject[memory.subject]
            if memory in newest:
                newest.remove(memory)
            newest.insert(0, memory)
        elif memory.subject:
            self.on_subject[memory.subject] = [memory]

    def write(self) -> None:
        """Write what the batch decided so far."""
        if self.new:
            try:
                Memory.objects.bulk_create(sorted(self.new.values(), key=attrgetter("fingerprint")))
            except IntegrityError as exc:
                raise Conflict("a concurrent request stored one of these memories") from exc
        if self.restated:
            self._write_restated()
        if self.tensions:
            Tension.objects.bulk_create(self.tensions)
        if self.new:
            index_entries(memory.recall_entry() for memory in self.new.values())
        self.new, self.restated, self.tensions = {}, {}, []

    def _write_restated(self) -> None:
        rows = (
            Memory.objects.select_for_update()
            .filter(pk__in=self.restated)
            .order_by("fingerprint")
            .only("tier", "times_seen", "turns_seen")
        )
        # One UPDATE per set of new values: restatements mostly leave the same counts.
        changes: dict[tuple[str, int, int], list[str]] = defaultdict(list)
        for row in rows:
            memory = self.known[row.pk]
            memory.tier, memory.times_seen, memory.turns_seen = (
                row.tier,
                row.times_seen,
                row.turns_seen,
            )
            for tier, new_turn in self.restated[row.pk]:
                self.outcome.promoted += _restate(
                    memory, tier=tier, new_turn=new_turn, now=self.now
                )
            changes[(memory.tier, memory.times_seen, memory.turns_seen)].append(memory.pk)
        for (tier, times_seen, turns_seen), ids in changes.items():
            Memory.objects.filter(pk__in=ids).update(
                tier=tier, times_seen=times_seen, turns_seen=turns_seen, updated_at=self.now
            )


def _newest_on(org: Organisation, subjects: list[str], per_subject: int) -> tuple[str, list]:
    """SQL for the ``per_subject`` newest memories outside the archive on each of ``subjects``.

    One limited read per subject, each a short walk down ``memory_org_subject_recent``: a window
    over all of a subject's memories would read them all, and a common subject holds thousands.
    """
    table = Memory._meta.db_table
    newest = (
        f"SELECT * FROM (SELECT id FROM {table} WHERE organisation_id = %s AND subject = %s"  # noqa: S608
        f" AND tier <> %s ORDER BY updated_at DESC, id DESC LIMIT %s) AS newest"
    )
    ids = " UNION ALL ".join([newest] * len(subjects))
    sql = (
        f"SELECT {table}.* FROM {table} JOIN ({ids}) AS picked ON picked.id = {table}.id"  # noqa: S608
        f" ORDER BY {table}.subject, {table}.updated_at DESC, {table}.id DESC"
    )
    return sql, [value for subject in subjects for value in (org.pk, subject, ARCHIVE, per_subject)]


def _restate(memory: Memory, *, tier: str | None, new_turn: bool, now: datetime) -> bool:
    """Count a restatement of ``memory``, promoting it on its third separate turn (True then)."""
    memory.times_seen += 1
    memory.updated_at = now
    if new_turn:
        memory.turns_seen += 1
        if memory.tier == WORKING and memory.turns_seen >= PROMOTE_AFTER_TURNS:
            memory.tier = CORE
            return True
    elif tier and tier != memory.tier:
        memory.tier = tier  # an explicit tier in a direct store wins
    return False


def _tension(org: Organisation, *, older: Memory, newer: Memory, now: datetime) -> Tension:
    return Tension(
        organisation=org,
        older=older,
        newer=newer,
        description=f"On {newer.subject}: “{newer.content}” contradicts “{older.content}”.",
        created_at=now,
    )
