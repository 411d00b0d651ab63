"""Guardrail lines for a prompt: what the self-model says about the domains that matter now.

A domain matters when it is weak (reliability below 0.6), or when the message names it and it
has a failure pattern or a strategy to pass on. The message names a domain when every index term
of the domain's name is among the message's terms: "deploys" is named by "I'm deploying the API".
Two statements whatever the number of domains, written in SQL because the context block runs them
on every build and the ORM took ten times longer to compose them than the database to answer:
the weak domains and the named candidates (found by the indexed ``anchor`` term, so not every
domain is read) in one, their notes in the other.
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


def guardrails(*, org: Organisation, message: str, most: int = 10) -> list[Guardrail]:
    """Return at most ``most`` guardrails: weak domains weakest first, then named ones by key."""
    if most <= 0:
        return []
    words = sorted(set(terms(message)))
    weak, named = _domains(org.pk, words, most)
    named = [d for d in named if set(d.terms.split()) <= set(words)][: most - len(weak)]
    notes = _notes([domain.pk for domain in (*weak, *named)])
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
_COLUMNS = "id, name, terms, successes, failures"


def _domains(org_id: str, words: list[str], most: int) -> tuple[list[Domain], list[Domain]]:
    """Return ``org``'s weakest domains (at most ``most``) and the non-weak ones with a note
    whose anchor is among ``words``, in key order."""
    table, notes = Domain._meta.db_table, Note._meta.db_table
    # Reliability times five is (8 + 5s) / (10 + 5n): one exact division, so ties stay in key order.
    score = "CAST(8 + 5 * successes AS DOUBLE PRECISION) / (10 + 5 * (successes + failures))"
    sql = (
        f"SELECT {_COLUMNS}, 1 FROM (SELECT {_COLUMNS}, key FROM {table}"  # noqa: S608
        f" WHERE organisation_id = %s AND {_WEAK_SQL} ORDER BY {score}, key LIMIT %s) AS w"
    )
    params: list[object] = [org_id, most]
    if words:
        sql += (
            f" UNION ALL SELECT {_COLUMNS}, 0 FROM (SELECT {_COLUMNS}, key FROM {table} d"  # noqa: S608
            f" WHERE organisation_id = %s AND anchor IN ({', '.join(['%s'] * len(words))})"
            f" AND NOT ({_WEAK_SQL})"
            f" AND EXISTS (SELECT 1 FROM {notes} n WHERE n.domain_id = d.id)"
            f" ORDER BY key LIMIT %s) AS named"
        )
        params += [org_id, *words, MAX_NAMED_CANDIDATES]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    weak: list[Domain] = []
    named: list[Domain] = []
    for pk, name, names_terms, successes, failures, is_weak in rows:
        domain = Domain(pk=pk, name=name, terms=names_terms, successes=successes, failures=failures)
        (weak if is_weak else named).append(domain)
    return weak, named


def _notes(domain_ids: list[int]) -> dict[int, list[tuple[str, str]]]:
    """Return each domain's (kind, text) notes, most recently seen first."""
    if not domain_ids:
        return {}
    table = Note._meta.db_table
    found: dict[int, list[tuple[str, str]]] = {}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT domain_id, kind, text FROM {table}"  # noqa: S608
            f" WHERE domain_id IN ({', '.join(['%s'] * len(domain_ids))})"
            " ORDER BY last_seen_at DESC, id DESC",
            domain_ids,
        )
        for domain_id, kind, text in cursor.fetchall():
            found.setdefault(domain_id, []).append((kind, text))
    return found


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
