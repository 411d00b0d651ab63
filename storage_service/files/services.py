"""Writes on files."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction

from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.models import File
from storage_service.files.sniffing import category_of
from storage_service.folders.models import Folder


def file_register(
    *,
    org: Organisation,
    folder: Folder | None,
    name: str,
    size: int,
    content_type: str,
    storage_name: str,
    sha256: str,
    metadata: dict[str, Any],
    now: datetime,
    file_id: str | None = None,
) -> File:
    """Record bytes already stored under ``storage_name`` as a file, counting them against quota.

    Raises STORAGE_QUOTA_EXCEEDED without creating anything; the caller then deletes the bytes.
    """
    with transaction.atomic():
        quota.quota_reserve(org=org, size=size)
        extra = {"pk": file_id} if file_id else {}
        return File.objects.create(
            organisation=org,
            folder=folder,
            name=name,
            size=size,
            content_type=content_type,
            category=category_of(content_type),
            storage_name=storage_name,
            sha256=sha256,
            metadata=metadata,
            uploaded_at=now,
            updated_at=now,
            **extra,
        )
