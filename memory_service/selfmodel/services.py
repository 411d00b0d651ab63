"""Writes to the self-model: recording how a domain went, with what failed and what helped.

One outcome is one transaction. It locks the domain's row first (``select_for_update``), then
touches that domain's notes, so concurrent outcomes for one domain queue behind each other and
count exactly. When several requests create the same new domain at once, the unique
(organisation, key) index lets one insert win; the others fail inside a savepoint and lock the
winner's row instead. Counters move with ``F()`` so that SQLite, which ignores row locks but
serialises writers, loses no increment either.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import F

from memory_service.accounts.models import Organisation
from memory_service.extraction.secrets import contains_secret, redact
from memory_service.memories.retry import retry_on_conflict
from memory_service.selfmodel.models import (
    FAILURE_PATTERN,
    MAX_DOMAIN_LENGTH,
    MAX_NOTE_LENGTH,
    MAX_NOTES_PER_KIND,
    STRATEGY,
    Domain,
    Note,
    domain_key,
    name_fields,
    note_key,
)


def outcome_record(
    *,
    org: Organisation,
    domain: str,
    success: bool,
    failure_pattern: str = "",
    strategy: str = "",
    now: datetime,
) -> Domain:
    """Count one outcome of ``domain`` and add its failure pattern and strategy, if any.

    A failure pattern makes the outcome a failure whatever ``success`` says. Credentials in the
    name, the pattern or the strategy are replaced by ``[redacted]`` before anything is stored.
    Return the domain with its notes, as the API shows it.
    """
    name = _redacted(domain.strip(), MAX_DOMAIN_LENGTH)
    notes = [
        # On one line: a note becomes part of a guardrail line in a prompt.
        (kind, _redacted(" ".join(text.split()), MAX_NOTE_LENGTH))
        for kind, text in ((FAILURE_PATTERN, failure_pattern), (STRATEGY, strategy))
        if text.strip()
    ]
    counter = "successes" if success and not failure_pattern.strip() else "failures"

    @retry_on_conflict
    def write() -> Domain:
        with transaction.atomic():
            domain = _locked_domain(org=org, name=name, now=now)
            Domain.objects.filter(pk=domain.pk).update(**{counter: F(counter) + 1}, updated_at=now)
            for kind, text in notes:
                _note_add(domain=domain, kind=kind, text=text, now=now)
            # Read under the lock: the answer shows this outcome, not a later one's.
            return Domain.objects.with_notes().get(pk=domain.pk)

    return write()


def _redacted(text: str, max_length: int) -> str:
    """Return ``text`` with credentials redacted, cut to ``max_length`` characters."""
    if contains_secret(text):
        text = redact(text)  # "[redacted]" may be longer than what it replaced
    return text[:max_length].strip()


def _locked_domain(*, org: Organisation, name: str, now: datetime) -> Domain:
    key = domain_key(name)
    existing = Domain.objects.select_for_update().for_org(org).filter(key=key).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():  # a savepoint: a racing request's insert may win
            return Domain.objects.create(
                organisation=org, name=name, **name_fields(name), created_at=now, updated_at=now
            )
    except IntegrityError:
        return Domain.objects.select_for_update().for_org(org).get(key=key)


def _note_add(*, domain: Domain, kind: str, text: str, now: datetime) -> None:
    """Count ``text`` again on the locked ``domain``, or add it and drop the least recently seen."""
    key = note_key(text)
    notes = Note.objects.filter(domain=domain, kind=kind)
    if notes.filter(key=key).update(count=F("count") + 1, last_seen_at=now):
        return
    Note.objects.create(
        domain=domain, kind=kind, text=text, key=key, first_seen_at=now, last_seen_at=now
    )
    stale = list(
        notes.order_by("-last_seen_at", "-id").values_list("pk", flat=True)[MAX_NOTES_PER_KIND:]
    )
    if stale:
        Note.objects.filter(pk__in=stale).delete()
