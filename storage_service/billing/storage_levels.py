"""The storage series: live bytes and files per organisation, hour and file type, as changes.

The quota module writes a change whenever it moves an organisation's counters, in the same
transaction, so the series and the quota can never disagree. A level at any hour is the sum of
the changes up to it.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Sum

from storage_service.billing.models import StorageChange
from storage_service.billing.upserts import add_to_rows

HOUR = 3600


def hour_of(unix: float) -> int:
    """Unix seconds at the start of the UTC hour that holds ``unix``."""
    return int(unix) - int(unix) % HOUR


def storage_changed(
    *, org_id: str, by_category: Mapping[str, tuple[int, int]], sign: int, at: float
) -> None:
    """Record that ``(bytes, files)`` per category came (``sign`` 1) or went (-1) at ``at``."""
    rows = [
        (org_id, hour_of(at), category, sign * size, sign * files)
        for category, (size, files) in sorted(by_category.items())
        if size or files
    ]
    add_to_rows(
        StorageChange._meta.db_table,
        ("organisation_id", "hour", "category"),
        ("bytes", "files"),
        rows,
    )


def levels_before(*, org_id: str, hour: int) -> dict[str, list[int]]:
    """``[bytes, files]`` stored per category when ``hour`` began."""
    rows = (
        StorageChange.objects.filter(organisation_id=org_id, hour__lt=hour)
        .values("category")
        .annotate(size=Sum("bytes"), count=Sum("files"))
        .order_by()
    )
    return {row["category"]: [row["size"] or 0, row["count"] or 0] for row in rows}


def changes_between(*, org_id: str, start: int, end: int) -> list[tuple[int, str, int, int]]:
    """``(hour, category, bytes, files)`` of every change in ``[start, end)``, by hour."""
    rows = StorageChange.objects.filter(organisation_id=org_id, hour__gte=start, hour__lt=end)
    return list(rows.order_by("hour").values_list("hour", "category", "bytes", "files"))
