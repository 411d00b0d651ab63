"""Guardrail lines for a prompt: what the self-model says about the domains that matter now.

A domain matters when it is weak (reliability below 0.6), or when the message names it and it
has a failure pattern or a strategy to pass on. The message names a domain when every index term
of the domain's name is among the message's terms: "deploys" is named by "I'm deploying the API".
Three queries whatever the number of domains: the weak ones, the named candidates (found by the
indexed ``anchor`` term, so not every domain is read), and the notes of both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Exists, OuterRef, prefetch_related_objects

from memory_service.accounts.models import Organisation
from memory_service.recall.text import terms
from memory_service.selfmodel.models import (
    FAILURE_PATTERN,
    STRATEGY,
    WEAK_BELOW,
    Domain,
    Note,
    latest_notes,
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
    weak = list(Domain.objects.for_org(org).weak().weakest_first()[:most])
    named = _named_domains(org=org, message=message, most=most - len(weak), skip=weak)
    # One query for the notes of both lists.
    prefetch_related_objects([*weak, *named], latest_notes())
    rails = [
        Guardrail(
            domain.name,
            _line(domain),
            f"weak domain: reliability {_score(domain.reliability)} is below {float(WEAK_BELOW)}",
        )
        for domain in weak
    ]
    rails += [
        Guardrail(domain.name, _line(domain), f"named in the message: {domain.name}")
        for domain in named
    ]
    return rails


def _named_domains(
    *, org: Organisation, message: str, most: int, skip: list[Domain]
) -> list[Domain]:
    """Return up to ``most`` domains named by ``message`` that have a note, in key order."""
    if most <= 0:
        return []
    words = set(terms(message))
    if not words:
        return []
    skipped = {domain.pk for domain in skip}
    candidates = (
        Domain.objects.for_org(org)
        .filter(anchor__in=words)
        .filter(Exists(Note.objects.filter(domain=OuterRef("pk"))))
        .order_by("key")
    )
    named = []
    for domain in candidates:
        if domain.pk not in skipped and set(domain.terms.split()) <= words:
            named.append(domain)
            if len(named) == most:
                break
    return named


def _score(value: Fraction) -> str:
    """Show a reliability with two decimals, rounded down: a guardrail never overstates it."""
    return f"{math.floor(value * 100) / 100:.2f}"


def _line(domain: Domain) -> str:
    """Return the domain's one line: reliability, then what to avoid and what to try."""
    outcomes = "outcome" if domain.samples == 1 else "outcomes"
    parts = [
        f"{domain.name}: reliability {_score(domain.reliability)} over {domain.samples} {outcomes}."
    ]
    for label, kind in (("Avoid", FAILURE_PATTERN), ("Try", STRATEGY)):
        latest = [note.text.rstrip(" .;") for note in domain.notes.all() if note.kind == kind]
        latest = [text for text in latest if text][:LATEST]
        if latest:
            parts.append(f"{label}: {'; '.join(latest)}.")
    return " ".join(parts)
