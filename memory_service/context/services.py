"""Building the context block: what goes in each section, from the organisation's memories.

Sections, in order: guardrails from the self-model; core bodies and ``forceFull`` pins; the index
(one short line per working memory, most relevant to the message first, by recall's ranking,
then the most recently updated); bodies of working memories that a concrete term of the message
triggers and that the transcript does not already hold. Archived memories appear only when pinned
by id. Each section is produced lazily, so a section the ceiling cuts is never read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db.models import Q, QuerySet

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.context.block import (
    CORE,
    GUARDRAILS,
    INDEX,
    TRIGGERED,
    Block,
    Line,
    assemble,
    one_line,
)
from memory_service.context.triggers import Term, concrete_terms
from memory_service.memories.lookup import memories_touch
from memory_service.memories.models import CORE as CORE_TIER
from memory_service.memories.models import WORKING, Memory, Turn
from memory_service.recall.search import holders, search
from memory_service.recall.text import query_words, terms
from memory_service.selfmodel.guardrails import guardrails

# The best matches the core and index sections draw on, beyond the index's own length, before
# they fall back to recency: room for the core memories among them.
RANKED_CORE = 10
# What of a message is read: as much as a turn's message holds. A pasted megabyte costs what a
# question does, and what it names past this point triggers nothing.
MESSAGE_SCAN = 20_000
# Enough of a message's words to rank by; every word would read every block there is.
QUERY_WORDS = 64
MAX_GUARDRAILS = 10
MAX_TRIGGERED = 20
# Holders read beyond the ranking, newest first: enough for MAX_TRIGGERED bodies when most of
# them do not hold a phrase as written.
MAX_READ_TRIGGERED = 100
# A term more memories hold than this names nothing in particular.
MAX_HOLDERS = 200
# The turns of a session read as its transcript, newest first.
TRANSCRIPT_TURNS = 50
INDEX_LINE_CHARS = 100
BATCH = 50
FIELDS = ("id", "content", "tier", "updated_at", "last_used_at")


class MemoryRow(NamedTuple):
    """A memory as the block reads it: tuples, since model instances cost more to make than
    the database takes to send them, on every build."""

    id: str
    content: str
    tier: str
    updated_at: datetime
    last_used_at: datetime | None


def _read(memories: QuerySet[Memory]) -> list[MemoryRow]:
    return [MemoryRow(*row) for row in memories.values_list(*FIELDS)]


@dataclass
class _Build:
    """What one build has read so far: the ranking, and every memory it showed."""

    org: Organisation
    message: str
    transcript: str  # casefolded, whitespace as single spaces
    ranked: list[tuple[MemoryRow, list[str]]] = field(default_factory=list)
    shown: dict[str, MemoryRow] = field(default_factory=dict)
    full: set[str] = field(default_factory=set)  # memories whose body is in the block


def context_build(
    *,
    org: Organisation,
    message: str,
    ceiling: int,
    max_index_items: int,
    transcript: str = "",
    session_id: str = "",
    force_full: list[str] | tuple[str, ...] = (),
) -> Block:
    """Return ``org``'s context block for ``message`` in at most ``ceiling`` tokens."""
    pinned = _pinned(org, force_full)
    message = message[:MESSAGE_SCAN]
    if session_id:
        transcript = f"{_session_transcript(org, session_id)}\n{transcript}"
    build = _Build(org=org, message=message, transcript=one_line(transcript).casefold())
    build.ranked = _ranked(org, message, limit=max_index_items + RANKED_CORE)
    block = assemble(_lines(build, pinned, max_index_items), ceiling=ceiling)
    used = {entry.memory_id for entry in block.entries if entry.memory_id}
    memories_touch(org=org, memories=[build.shown[i] for i in used])
    return block


def _lines(build: _Build, pinned: list[MemoryRow], max_index_items: int) -> Iterator[Line]:
    for rail in guardrails(org=build.org, message=build.message, limit=MAX_GUARDRAILS):
        yield Line(f"Guardrail: {rail.line}", GUARDRAILS, rail.reason, domain=rail.domain)
    for memory in pinned:
        yield _body(build, memory, CORE, "pinned by forceFull")
    for memory, reason in _core(build):
        yield _body(build, memory, CORE, reason)
    if max_index_items:
        for memory, reason in _index(build, max_index_items):
            build.shown[memory.id] = memory
            yield Line(f"Index: {_summary(memory.content)}", INDEX, reason, memory_id=memory.id)
    for memory, term in _triggered(build):
        yield _body(build, memory, TRIGGERED, f'triggered by "{term.text}" ({term.kind})')


def _body(build: _Build, memory: MemoryRow, section: str, reason: str) -> Line:
    build.shown[memory.id] = memory
    build.full.add(memory.id)
    prefix = "Memory" if section == CORE else "Recalled"
    return Line(f"{prefix}: {memory.content}", section, reason, memory_id=memory.id)


def _pinned(org: Organisation, ids: list[str] | tuple[str, ...]) -> list[MemoryRow]:
    """Return the pinned memories in the order given; an id ``org`` does not hold is refused."""
    if not ids:
        return []
    by_id = {row.id: row for row in _read(Memory.objects.for_org(org).filter(id__in=set(ids)))}
    missing = [
        errors.issue(f"forceFull[{n}]", f"No memory {memory_id}.")
        for n, memory_id in enumerate(ids)
        if memory_id not in by_id
    ]
    if missing:
        raise errors.InvalidRequest(missing)
    return [by_id[memory_id] for memory_id in dict.fromkeys(ids)]


def _session_transcript(org: Organisation, session_id: str) -> str:
    turns = Turn.objects.for_org(org).filter(session_id=session_id)
    recent = turns.order_by("-created_at", "-id").values_list("user_message", "assistant_response")[
        :TRANSCRIPT_TURNS
    ]
    return "\n".join(f"{said}\n{answered}" for said, answered in recent)


def _ranked(org: Organisation, message: str, *, limit: int) -> list[tuple[MemoryRow, list[str]]]:
    """Return the memories recall ranks best for ``message``, with the words they matched."""
    words = list(query_words(message).values())[:QUERY_WORDS]
    if not words:
        return []
    matches = search(org=org, query=" ".join(words), limit=limit)
    ids = [m.memory_id for m in matches]
    rows = {row.id: row for row in _read(Memory.objects.for_org(org).filter(id__in=ids))}
    return [(rows[m.memory_id], m.words) for m in matches if m.memory_id in rows]


def _core(build: _Build) -> Iterator[tuple[MemoryRow, str]]:
    """Core memories: those the message matches first, then the most recently updated."""
    for memory, words in build.ranked:
        if memory.tier == CORE_TIER and memory.id not in build.full:
            yield memory, "core memory; matched: " + ", ".join(words)
    core = Memory.objects.for_org(build.org).filter(tier=CORE_TIER)
    for memory in _newest_first(core):
        if memory.id not in build.full:
            yield memory, "core memory"


def _index(build: _Build, limit: int) -> Iterator[tuple[MemoryRow, str]]:
    """Up to ``limit`` working memories: the best matches, then the most recently updated."""
    listed: set[str] = set()
    for memory, words in build.ranked:
        if memory.tier == WORKING and memory.id not in build.full and len(listed) < limit:
            listed.add(memory.id)
            yield memory, "matched: " + ", ".join(words)
    if len(listed) == limit:
        return
    # One query: the index is short, and the newest working memories are an index scan away.
    working = Memory.objects.for_org(build.org).filter(tier=WORKING)
    recent = working.exclude(id__in=listed | build.full).order_by("-updated_at", "-id")
    for memory in _read(recent[: limit - len(listed)]):
        yield memory, "recently updated working memory"


def _newest_first(memories: QuerySet[Memory]) -> Iterator[MemoryRow]:
    """Yield ``memories`` (a queryset) newest first, a batch at a time, only as far as read."""
    page = memories.order_by("-updated_at", "-id")
    while True:
        batch = _read(page[:BATCH])
        yield from batch
        if len(batch) < BATCH:
            return
        last = batch[-1]
        after = Q(updated_at__lt=last.updated_at) | Q(updated_at=last.updated_at, id__lt=last.id)
        page = memories.filter(after).order_by("-updated_at", "-id")


def _triggered(build: _Build) -> Iterator[tuple[MemoryRow, Term]]:
    """Working memories holding a concrete term of the message that the transcript lacks."""
    wanted = [
        (term, stems)
        for term in concrete_terms(build.message)
        if not _stands_in(term.text, build.transcript) and (stems := sorted(set(terms(term.text))))
    ]
    if not wanted:
        return
    holding = holders(build.org, {s for _, stems in wanted for s in stems}, most=MAX_HOLDERS)
    # A term of several words needs only its rarer words to find its holders: "Felix Dubois"
    # stands in one memory even when "felix" stands in hundreds (the phrase is checked below).
    candidates = {
        term: set.intersection(*rare)
        if (rare := [set(holding[s]) for s in stems if s in holding])
        else set()
        for term, stems in wanted
    }
    several = {term for term, stems in wanted if len(stems) > 1}
    ids = set().union(*candidates.values()) - build.full
    # The ranking has read most of them already: a term the message names is a word it ranks by.
    known = {memory.id: memory for memory, _ in build.ranked if memory.id in ids}
    missing = Memory.objects.for_org(build.org).filter(tier=WORKING, id__in=ids - set(known))
    rows = [*known.values(), *_read(missing.order_by("-updated_at", "-id")[:MAX_READ_TRIGGERED])]
    newest = sorted(
        (memory for memory in rows if memory.tier == WORKING),
        key=lambda m: (m.updated_at, m.id),
        reverse=True,
    )
    triggered = 0
    for term, _ in wanted:
        phrase = one_line(term.text).casefold()
        for memory in newest:
            if memory.id in build.full or memory.id not in candidates[term]:
                continue
            body = one_line(memory.content).casefold()
            # One word matches as recall matches it (by stem); more must stand as written.
            if term in several and phrase not in body:
                continue
            if body in build.transcript:
                continue
            yield memory, term
            triggered += 1
            if triggered == MAX_TRIGGERED:
                return


def _stands_in(text: str, transcript: str) -> bool:
    """Tell whether the casefolded ``transcript`` holds ``text`` as a word or phrase."""
    if not transcript:
        return False
    needle = one_line(text).casefold()
    return re.search(rf"(?<!\w){re.escape(needle)}(?!\w)", transcript) is not None


def _summary(content: str) -> str:
    """Return ``content`` on one line, cut at a word to about INDEX_LINE_CHARS characters."""
    text = one_line(content)
    if len(text) <= INDEX_LINE_CHARS:
        return text
    cut = text[:INDEX_LINE_CHARS].rsplit(" ", 1)[0] or text[:INDEX_LINE_CHARS]
    return cut.rstrip(",;:.-") + "…"
