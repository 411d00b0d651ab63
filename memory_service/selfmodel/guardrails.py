"""Guardrail lines for a prompt: what the self-model says about the domains that matter now.

A domain matters when it is weak (reliability below 0.6), or when the message names it and it
has a failure pattern or a strategy to pass on. The message names a domain when every index term
of the domain's name is among the message's terms: "deploys" is named by "I'm deploying the API".
One statement whatever the number of domains, written in SQL because the context block runs it on
every build and the ORM took ten times longer to compose its queries than the database to answer:
the weak domains and the named candidates (found by the indexed ``anchor`` term, so not every
domain is read), joined to their notes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from django.db import connection

from memory_service.accounts.models import Organisation
from memory_service.recall.text import terms
from memory_service.selfmodel.models import (
    FAILURE_PATTERN,
    STRATEGY,
    WEAK_BELOW,
    Domain,
    Note,
    reliability,
)

# How many of a domain's latest failure patterns, and of its latest strategies, a line shows.
LATEST = 3


@dataclass(frozen=True)
class Guardrail:
    """One line for the prompt about ``domain``, and why it is there."""

    domain: str
    line: str
    reason: str


def guardrails(*, org: Organisation, message: str, limit: int = 10) -> list[Guardrail]:
    """Return at most ``limit`` guardrails: weak domains weakest first, then named ones by key."""
    if limit <= 0:
        return []
    words = sorted(set(terms(message)))
    weak, named, notes = _domains(org.pk, words, limit)
    named = [d for d in named if set(d.terms.split()) <= set(words)][: limit - len(weak)]
    threshold = float(WEAK_BELOW)
    rails = [
        Guardrail(
            domain.name,
            _line(domain, notes.get(domain.pk, [])),
            f"weak domain: reliability {_score(domain.reliability)} is below {threshold}",
        )
        for domain in weak
    ]
    rails += [
        Guardrail(
            domain.name,
            _line(domain, notes.get(domain.pk, [])),
            f"named in the message: {domain.name}",
        )
        for domain in named
    ]
    return rails


# Candidates named by the message: anchors are the longest term of a name, so few domains share
# one; this bounds what a message of many words can read.
MAX_NAMED_CANDIDATES = 200
_WEAK_SQL = "2 + 2 * successes < 3 * failures"
# Reliability times five is (8 + 5s) / (10 + 5n): one exact division, so ties stay in key order.
_SCORE_SQL = "CAST(8 + 5 * successes AS DOUBLE PRECISION) / (10 + 5 * (successes + failures))"
_COLUMNS = f"id, name, key, terms, successes, failures, {_SCORE_SQL} AS score"

Notes = dict[int, list[tuple[str, str]]]


def _domains(org_id: str, words: list[str], limit: int) -> tuple[list[Domain], list[Domain], Notes]:
    """Return ``org``'s weakest domains (at most ``limit``), the non-weak ones with a note whose
    anchor is among ``words`` (in key order), and the (kind, text) notes of both, most recently
    seen first: one statement."""
    table, notes_table = Domain._meta.db_table, Note._meta.db_table
    picked = (
        f"SELECT w.*, 1 AS weak FROM (SELECT {_COLUMNS} FROM {table}"  # noqa: S608
        f" WHERE organisation_id = %s AND {_WEAK_SQL} ORDER BY score, key LIMIT %s) AS w"
    )
    params: list[str | int] = [org_id, limit]
    if words:
        picked += (
            f" UNION ALL SELECT c.*, 0 FROM (SELECT {_COLUMNS} FROM {table} d"  # noqa: S608
            f" WHERE organisation_id = %s AND anchor IN ({', '.join(['%s'] * len(words))})"
            f" AND NOT ({_WEAK_SQL})"
            f" AND EXISTS (SELECT 1 FROM {notes_table} n WHERE n.domain_id = d.id)"
            f" ORDER BY key LIMIT %s) AS c"
        )
        params += [org_id, *words, MAX_NAMED_CANDIDATES]
    sql = (
        f"SELECT p.id, p.name, p.terms, p.successes, p.failures, p.weak, n.kind, n.text"  # noqa: S608
        f" FROM ({picked}) AS p LEFT JOIN {notes_table} n ON n.domain_id = p.id"
        " ORDER BY p.weak DESC, CASE WHEN p.weak = 1 THEN p.score ELSE 0 END, p.key,"
        " n.last_seen_at DESC, n.id DESC"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    weak: list[Domain] = []
    named: list[Domain] = []
    notes: Notes = {}
    for pk, name, names_terms, successes, failures, is_weak, kind, text in rows:
        if pk not in notes:
            notes[pk] = []
            domain = Domain(
                pk=pk, name=name, terms=names_terms, successes=successes, failures=failures
            )
            (weak if is_weak else named).append(domain)
        if kind is not None:
            notes[pk].append((kind, text))
    return weak, named, notes


def _score(value: Fraction) -> str:
    """Show a reliability with two decimals, rounded down: a guardrail never overstates it."""
    return f"{math.floor(value * 100) / 100:.2f}"


def _line(domain: Domain, notes: list[tuple[str, str]]) -> str:
    """Return the domain's one line: reliability, then what to avoid and what to try."""
    outcomes = "outcome" if domain.samples == 1 else "outcomes"
    score = _score(reliability(domain.successes, domain.failures))
    parts = [f"{domain.name}: reliability {score} over {domain.samples} {outcomes}."]
    for label, kind in (("Avoid", FAILURE_PATTERN), ("Try", STRATEGY)):
        latest = [text.rstrip(" .;") for note_kind, text in notes if note_kind == kind]
        latest = [text for text in latest if text][:LATEST]
        if latest:
            parts.append(f"{label}: {'; '.join(latest)}.")
    return " ".join(parts)
