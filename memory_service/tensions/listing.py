"""Reading tensions: a page newest first behind an opaque cursor, counts, and the open ones.

``tension_counts`` and ``open_tensions`` are what GET /v1/stats reports.
"""

from __future__ import annotations

from django.db.models import Count

from memory_service.accounts.models import Organisation
from memory_service.pagination import newest_first_page
from memory_service.tensions.models import STATUSES, Tension


def tensions_page(
    *,
    org: Organisation,
    status: str | None = None,
    limit: int,
    cursor: str | None = None,
) -> tuple[list[Tension], str | None]:
    """Return up to ``limit`` tensions newest first, and the cursor of the next page or None."""
    tensions = Tension.objects.for_org(org).with_memories().newest_first()
    if status:
        tensions = tensions.filter(status=status)
    return newest_first_page(tensions, limit=limit, cursor=cursor)


def tension_counts(*, org: Organisation) -> dict[str, int]:
    """Return how many of ``org``'s tensions are open and how many resolved."""
    counts = dict.fromkeys(STATUSES, 0)
    rows = Tension.objects.for_org(org).order_by().values("status").annotate(n=Count("id"))
    counts.update({row["status"]: row["n"] for row in rows})
    return counts


def open_tensions(*, org: Organisation, limit: int = 10) -> list[Tension]:
    """Return ``org``'s open tensions newest first, at most ``limit``, both memories loaded."""
    return list(Tension.objects.for_org(org).open().with_memories().newest_first()[:limit])
