from __future__ import annotations

from django.core.files.storage import storages

from storage_service.accounts.models import Organisation
from tests.storage.envelope import data_of, error_of

__all__ = ["data_of", "error_of"]


def usage(org: Organisation) -> tuple[int, int]:
    """The organisation's counted (bytes, files)."""
    org.refresh_from_db(fields=["storage_used", "file_count"])
    return org.storage_used, org.file_count


def stored(*files) -> list[bool]:
    return [storages["default"].exists(file.storage_name) for file in files]
