"""Storage quota: live bytes and file counts per organisation, reserved atomically.

Every change to what an organisation stores passes through ``quota_reserve`` or ``quota_release``,
which also move the storage series billing reports from (same transaction, by file type).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

from django.db.models import F

from storage_service import clock, errors
from storage_service.accounts.models import Organisation
from storage_service.billing.storage_levels import storage_changed

# ``(bytes, files)`` by file category.
Stored = Mapping[str, tuple[int, int]]


def stored_of(files: Iterable[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """Sum ``(category, size)`` pairs into bytes and files per category."""
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for category, size in files:
        sums[category][0] += size
        sums[category][1] += 1
    return {category: (size, count) for category, (size, count) in sums.items()}


def _totals(stored: Stored) -> tuple[int, int]:
    return sum(size for size, _ in stored.values()), sum(files for _, files in stored.values())


def check_upload_size(*, org: Organisation, size: int, whole: bool = True) -> None:
    """Refuse a file larger than the plan's largest upload (FILE_TOO_LARGE).

    ``whole`` is false while the bytes still arrive: ``size`` is then only a lower bound (the
    bytes so far, or what the body's length leaves for the file), so the answer leaves it out.
    """
    limit = org.plan_limits["maxUploadSize"]
    if size > limit:
        raise (
            errors.FileTooLarge(size=size, maxSize=limit)
            if whole
            else errors.FileTooLarge(maxSize=limit)
        )


def check_room(*, org: Organisation, size: int) -> None:
    """Refuse early when ``size`` more bytes cannot fit, without reserving them."""
    org.refresh_from_db(fields=["storage_used"])
    limit = org.plan_limits["storageLimit"]
    if org.storage_used + size > limit:
        raise errors.StorageQuotaExceeded(used=org.storage_used, limit=limit, requested=size)


def quota_reserve(*, org: Organisation, stored: Stored) -> None:
    """Count ``stored`` against ``org``, or raise STORAGE_QUOTA_EXCEEDED.

    One conditional UPDATE, so two concurrent uploads can never overshoot the quota together.
    """
    size, files = _totals(stored)
    limit = org.plan_limits["storageLimit"]
    updated = Organisation.objects.filter(pk=org.pk, storage_used__lte=limit - size).update(
        storage_used=F("storage_used") + size, file_count=F("file_count") + files
    )
    if not updated:
        org.refresh_from_db(fields=["storage_used"])
        raise errors.StorageQuotaExceeded(used=org.storage_used, limit=limit, requested=size)
    storage_changed(org_id=org.pk, by_category=stored, sign=1, at=clock.now().timestamp())


def quota_release(*, org_id: str, stored: Stored) -> None:
    """Give back ``stored`` (deletion, trash, a failed upload)."""
    size, files = _totals(stored)
    Organisation.objects.filter(pk=org_id).update(
        storage_used=F("storage_used") - size, file_count=F("file_count") - files
    )
    storage_changed(org_id=org_id, by_category=stored, sign=-1, at=clock.now().timestamp())
