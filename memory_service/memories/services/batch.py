"""Filing a batch of statements against what is held: stored, merged or contradicting.

Every function here runs inside the caller's transaction. Filing is set-based, so a batch of a
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
    # Rows are locked in fingerprint order, here and when the batch is written, so that
    # concurrent requests sharing statements queue behind each other instead of deadlocking.
    held = {
        memory.fingerprint: memory
        for memory in Memory.objects.select_for_update()
        .filter(organisation=org, fingerprint__in=set(prints))
        .order_by("fingerprint")
    }
    batch = _Batch(org=org, now=now, filing=filing, known=held.values())
    batch.read_subjects(items)
    filed: list[Memory] = []
    seen: set[str] = set()
    for index, (candidate, origin) in enumerate(items):
        memory = batch.file(
            candidate,
            held=held.get(prints[index]),
            print_=prints[index],
            origin=origin,
            # A statement repeated within one turn is one turn's worth towards promotion.
            new_turn=origin.source == TURN and prints[index] not in seen,
        )
        held[memory.fingerprint] = memory
        filed.append(memory)
        seen.add(prints[index])
    batch.write()
    answered = {memory.pk for memory in filing.memories}
    for memory in filed:
        if memory.pk not in answered:
            answered.add(memory.pk)
            filing.memories.append(memory)
    return filing


class _Batch:
    """A batch of statements decided in memory and written together (see the module's doc)."""

    def __init__(
        self, *, org: Organisation, now: datetime, filing: Filing, known: Iterable[Memory]
    ) -> None:
        self.org, self.now, self.filing = org, now, filing
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
        most = MAX_COMPARED + sum(origin.tier == ARCHIVE for _, origin in items)
        for memory in Memory.objects.raw(*_newest_on(self.org, subjects, most)):
            memory = self.known.setdefault(memory.pk, memory)
            self.on_subject.setdefault(memory.subject, []).append(memory)

    def held_on(self, subject: str) -> list[Memory]:
        held = self.on_subject.get(subject, [])
        return [memory for memory in held if memory.tier != ARCHIVE][:MAX_COMPARED]

    def file(
        self,
        candidate: Candidate,
        *,
        held: Memory | None,
        print_: str,
        origin: Origin,
        new_turn: bool,
    ) -> Memory:
        """File one candidate; ``held`` is the memory of its fingerprint, if there is one."""
        if held is not None:
            return self.restate(held, origin=origin, new_turn=new_turn)
        relation = None
        if origin.reconcile:
            subject = candidate.subject or ""
            relation = related_memory(
                held=self.held_on(subject), content=candidate.content, subject=subject
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
            fingerprint=print_,
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
        self.filing.stored += 1
        if relation is not None and relation.action == CONTRADICT:
            self.tensions.append(
                _tension(self.org, older=relation.memory, newer=memory, now=self.now)
            )
            self.filing.tensions += 1
        return memory

    def restate(self, memory: Memory, *, origin: Origin, new_turn: bool) -> Memory:
        """Count a restatement of ``memory``: now if the batch stores it, else once it is locked."""
        promoted = _restate(memory, tier=origin.tier, new_turn=new_turn, now=self.now)
        if memory.pk in self.new:
            self.filing.promoted += promoted
        else:
            self.restated.setdefault(memory.pk, []).append((origin.tier, new_turn))
        self.filing.merged += 1
        self._touched(memory)
        return memory

    def _touched(self, memory: Memory) -> None:
        """Put ``memory`` first on its subject: the batch just stored or restated it."""
        if memory.subject in self.on_subject:
            held = self.on_subject[memory.subject]
            if memory in held:
                held.remove(memory)
            held.insert(0, memory)
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
                self.filing.promoted += _restate(memory, tier=tier, new_turn=new_turn, now=self.now)
            changes[(memory.tier, memory.times_seen, memory.turns_seen)].append(memory.pk)
        for (tier, times_seen, turns_seen), ids in changes.items():
            Memory.objects.filter(pk__in=ids).update(
                tier=tier, times_seen=times_seen, turns_seen=turns_seen, updated_at=self.now
            )


def _newest_on(org: Organisation, subjects: list[str], most: int) -> tuple[str, list]:
    """SQL for the ``most`` newest memories outside the archive on each of ``subjects``.

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
        f"SELECT {table}.* FROM {table} JOIN ({ids}) AS held ON held.id = {table}.id"  # noqa: S608
        f" ORDER BY {table}.subject, {table}.updated_at DESC, {table}.id DESC"
    )
    return sql, [value for subject in subjects for value in (org.pk, subject, ARCHIVE, most)]


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
