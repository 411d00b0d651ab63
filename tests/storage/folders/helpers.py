from __future__ import annotations

from django.core.files.storage import storages

from storage_service.accounts.models import Organisation


def data_of(response) -> dict:
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["success"] is True and body["error"] is None
    return body["data"]


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["success"] is False
    assert body["error"]["code"] == code
    return body["error"]


def usage(org: Organisation) -> tuple[int, int]:
    """The organisation's counted (bytes, files)."""
    org.refresh_from_db(fields=["storage_used", "file_count"])
    return org.storage_used, org.file_count


def stored(*files) -> list[bool]:
    return [storages["default"].exists(file.storage_name) for file in files]
