"""Reading the self-model: a page of domains in key order behind an opaque cursor, the weak ones."""

from __future__ import annotations

import base64
import binascii

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.selfmodel.models import Domain, domain_key

# Marks a cursor as ours, so that any other string is refused rather than read as a key.
_CURSOR_MARK = "domain:"


def encode_cursor(domain: Domain) -> str:
    """Return the cursor that continues after ``domain``."""
    raw = f"{_CURSOR_MARK}{domain.key}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> str:
    """Return the domain key a cursor continues after, or fail on a cursor we did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raw = ""
    if not raw.startswith(_CURSOR_MARK):
        raise errors.InvalidRequest([errors.issue("cursor", "Not a cursor this service gave out.")])
    return raw.removeprefix(_CURSOR_MARK)


def domains_page(
    *, org: Organisation, domain: str | None = None, limit: int, cursor: str | None = None
) -> tuple[list[Domain], str | None]:
    """Return up to ``limit`` of ``org``'s domains in key order, and the next page's cursor."""
    domains = Domain.objects.for_org(org).order_by("key")
    if domain:
        domains = domains.filter(key=domain_key(domain))
    if cursor:
        domains = domains.filter(key__gt=decode_cursor(cursor))
    page = list(domains.with_notes()[: limit + 1])
    next_cursor = encode_cursor(page[limit - 1]) if len(page) > limit else None
    return page[:limit], next_cursor


def weak_domains(*, org: Organisation, limit: int = 10) -> list[Domain]:
    """Return up to ``limit`` of ``org``'s weak domains, lowest reliability first, then by key."""
    if limit <= 0:
        return []
    # With their notes: a caller showing them (stats, guardrails) then needs no query per domain.
    return list(Domain.objects.for_org(org).weak().weakest_first().with_notes()[:limit])
