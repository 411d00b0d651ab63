"""Uploading a file in tests, as a client does: one multipart POST, the file object back."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.storage.envelope import data_of


def upload_file(client, name: str, data: bytes, **fields: str) -> dict:
    response = client.post(
        "/v1/files/upload", {"file": SimpleUploadedFile(name, data), **fields}, format="multipart"
    )
    return data_of(response)["file"]
