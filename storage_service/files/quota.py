"""Storage quota: live bytes and file counts per organisation, reserved atomically."""

from __future__ import annotations

from django.db.models import F

from storage_service import errors
from storage_service.accounts.models import Organisation


def check_upload_size(*, org: Organisation, size: int) -> None:
    """Refuse a file larger than the plan's largest upload (FILE_TOO_LARGE)."""
    limit = org.plan_limits["maxUploadSize"]
    if size > limit:
        raise errors.FileTooLarge(size=size, maxSize=limit)


def check_room(*, org: Organisation, size: int) -> None:
    """Refuse early when ``size`` more bytes cannot fit, without reserving them."""
    org.refresh_from_db(fields=["storage_used"])
    limit = org.plan_limits["storageLimit"]
    if org.storage_used + size > limit:
        raise errors.StorageQuotaExceeded(used=org.storage_used, limit=limit, requested=size)


def quota_reserve(*, org: Organisation, size: int, files: int = 1) -> None:
    """Count ``size`` bytes and ``files`` files against ``org``, or raise STORAGE_QUOTA_EXCEEDED.

    One conditional UPDATE, so two concurrent uploads can never overshoot the quota together.
    """
    limit = org.plan_limits["storageLimit"]
    updated = Organisation.objects.filter(pk=org.pk, storage_used__lte=limit - size).update(
        storage_used=F("storage_used") + size, file_count=F("file_count") + files
    )
    if not updated:
        org.refresh_from_db(fields=["storage_used"])
        raise errors.StorageQuotaExceeded(used=org.storage_used, limit=limit, requested=size)


def quota_release(*, org_id: str, size: int, files: int = 1) -> None:
    """Give back ``size`` bytes and ``files`` files (deletion, trash, a failed upload)."""
    Organisation.objects.filter(pk=org_id).update(
        storage_used=F("storage_used") - size, file_count=F("file_count") - files
    )
