"""Writes to tensions: recording a contradiction, and resolving one into a lesson.

Lock order: the memories of the pair, in id order, then the tension row. Forgetting a memory
takes the same order (the memory, then the tensions its deletion cascades to), so a resolution
and a forgetting queue behind each other: whichever waits finds the tension resolved, or gone
(404). Two requests on one pair or one tension queue the same way, so the second records no
duplicate and resolves nothing twice. PostgreSQL may still abort one of two transactions that
also lock other rows (a merged lesson, the recall index) as a deadlock; ``retry_on_conflict``
runs it again.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import QuerySet

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import LESSON, Candidate
from memory_service.extraction.secrets import contains_secret, redact
from memory_service.memories.models import ARCHIVE, MAX_CONTENT_LENGTH, TENSION, Memory
from memory_service.memories.retry import retry_on_conflict
from memory_service.memories.services.batch import Origin, StoreOutcome, candidates_store
from memory_service.memories.services.memories import memory_move
from memory_service.tensions.models import BOTH, MAX_DESCRIPTION_LENGTH, RESOLVED, Tension


def tension_open(
    *,
    org: Organisation,
    memory_ids: list[str],
    description: str | None = None,
    now: datetime,
) -> Tension:
    """Record that two of ``org``'s memories contradict each other; return the pair's open one.

    Without a ``description`` the tension gets a sentence quoting both memories. A credential in
    the description is stored redacted.
    """

    @retry_on_conflict
    def write() -> Tension:
        with transaction.atomic():
            memories = _locked_memories(org, memory_ids)
            tension = Tension.objects.for_org(org).open().between(*memory_ids).first()
            if tension is None:
                # The pair is ordered by age whatever order the caller named it in.
                older, newer = sorted(memories.values(), key=lambda m: (m.created_at, m.pk))
                tension = Tension.objects.create(
                    organisation=org,
                    older=older,
                    newer=newer,
                    description=redact(description) if description else _described(older, newer),
                    created_at=now,
                )
            return Tension.objects.with_memories().get(pk=tension.pk)

    return write()


def tension_resolve(
    *,
    org: Organisation,
    tension_id: str,
    keep: str,
    note: str | None = None,
    now: datetime,
) -> Tension:
    """Resolve one of ``org``'s open tensions, keeping one memory or ``both``.

    The losing memory moves to the archive; the ``note``, or a sentence saying which memory
    holds, is stored as a lesson memory (a restated lesson merges into the one held).
    """
    if note is not None and contains_secret(note):
        message = "This looks like a credential; secrets are never stored."
        raise errors.InvalidRequest([errors.issue("note", message)])

    @retry_on_conflict
    def write() -> Tension:
        with transaction.atomic():
            pair = Tension.objects.for_org(org).filter(pk=tension_id)
            memory_ids = pair.values_list("older_id", "newer_id").first() or ()
            memories = _locked(Memory.objects.filter(pk__in=memory_ids))
            tension = pair.select_for_update().first()
            # A memory forgotten meanwhile took its tensions with it.
            if tension is None or len(memories) < 2:
                raise errors.NotFound(resource="tension", id=tension_id)
            if tension.status == RESOLVED:
                message = f"Tension {tension_id} is already resolved."
                raise errors.InvalidRequest([errors.issue("", message)])
            older, newer = memories[tension.older_id], memories[tension.newer_id]
            if keep not in (older.pk, newer.pk, BOTH):
                message = f"Keep {older.pk}, {newer.pk} or both."
                raise errors.InvalidRequest([errors.issue("keep", message)])
            if keep == BOTH:
                text = note or _both_hold(older, newer)
            else:
                winner, loser = (older, newer) if keep == older.pk else (newer, older)
                memory_move(org=org, memory_id=loser.pk, tier=ARCHIVE, now=now)
                text = note or _one_holds(winner, loser)
            tension.lesson = _lesson_store(org=org, text=text, pair=(older, newer), now=now)
            tension.status, tension.resolved_at = RESOLVED, now
            tension.kept, tension.note, tension.resolution = keep, note or "", text
            tension.save(
                update_fields=["status", "resolved_at", "kept", "note", "resolution", "lesson"]
            )
            return Tension.objects.with_memories().get(pk=tension.pk)

    return write()


def _locked_memories(org: Organisation, memory_ids: list[str]) -> dict[str, Memory]:
    """Lock the named memories of ``org``; an id it does not hold is an issue at its place."""
    memories = _locked(Memory.objects.for_org(org).filter(pk__in=memory_ids))
    missing = [
        errors.issue(f"memoryIds[{index}]", f"No memory {memory_id}.")
        for index, memory_id in enumerate(memory_ids)
        if memory_id not in memories
    ]
    if missing:
        raise errors.InvalidRequest(missing)
    return memories


def _locked(memories: QuerySet[Memory]) -> dict[str, Memory]:
    """Lock ``memories`` in id order, the order every write here takes them in."""
    return {memory.pk: memory for memory in memories.select_for_update().order_by("pk")}


def _lesson_store(
    *, org: Organisation, text: str, pair: tuple[Memory, Memory], now: datetime
) -> Memory:
    """Store ``text`` as a lesson and return the memory it was stored as or merged into."""
    older, newer = pair
    origin = Origin(
        source=TENSION,
        domain=older.domain if older.domain == newer.domain else "",
        reconcile=False,
    )
    # Without a subject, a lesson can only merge into the same words tension, never into a fact on
    # the subject it settles.
    outcome = candidates_store(
        org=org, items=[(Candidate(text, LESSON), origin)], outcome=StoreOutcome(), now=now
    )
    return outcome.memories[0]


def _described(older: Memory, newer: Memory) -> str:
    subject = newer.subject or older.subject
    frame = (f"On {subject}: “" if subject else "“", "” contradicts “", "”.")
    return _quoting(frame, newer.content, older.content, limit=MAX_DESCRIPTION_LENGTH)


def _one_holds(winner: Memory, loser: Memory) -> str:
    subject = winner.subject or loser.subject
    frame = (f"On {subject}: “" if subject else "“", "” holds, not “", "”.")
    return _quoting(frame, winner.content, loser.content, limit=MAX_CONTENT_LENGTH)


def _both_hold(older: Memory, newer: Memory) -> str:
    subject = newer.subject or older.subject
    frame = (f"On {subject}, both hold: “" if subject else "Both hold: “", "” and “", "”.")
    return _quoting(frame, older.content, newer.content, limit=MAX_CONTENT_LENGTH)


def _quoting(frame: tuple[str, ...], *parts: str, limit: int) -> str:
    """Put ``parts`` between the pieces of ``frame``, cut so that the whole fits in ``limit``.

    A part shorter than an even share of the room is kept whole and leaves the rest to the others.
    """
    room = limit - sum(len(piece) for piece in frame)
    allowed: dict[int, int] = {}
    for placed, index in enumerate(sorted(range(len(parts)), key=lambda i: len(parts[i]))):
        allowed[index] = min(len(parts[index]), room // (len(parts) - placed))
        room -= allowed[index]
    cut = [_cut(part, allowed[index]) for index, part in enumerate(parts)]
    return "".join(piece + quoted for piece, quoted in zip(frame, [*cut, ""], strict=True))


def _cut(text: str, max_length: int) -> str:
    text = text.strip().rstrip(".")  # the frame closes the quotation with its own full stop
    if len(text) <= max_length:
        return text
    return text[: max(max_length - 1, 0)].rstrip() + "…"
