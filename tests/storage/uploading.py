"""Uploading a file in tests, as a client does: one multipart POST, the file object back."""

from __future__ import annotations

import os
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.storage.envelope import data_of


def upload_file(client, name: str, data: bytes, **fields: str) -> dict:
    response = client.post(
        "/v1/files/upload", {"file": SimpleUploadedFile(name, data), **fields}, format="multipart"
    )
    return data_of(response)["file"]


def spill_files(media_root: Path) -> list[str]:
    """What uploads left in the spill directory (``FILE_UPLOAD_TEMP_DIR``): nothing, after any."""
    return os.listdir(media_root / ".incoming")
