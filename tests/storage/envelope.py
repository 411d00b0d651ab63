"""Reading the storage envelope in tests: the data of a success, the error of a failure."""

from __future__ import annotations


def data_of(response) -> dict:
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["success"] is True and body["error"] is None
    return body["data"]


def error_of(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["success"] is False
    if code is not None:
        assert body["error"]["code"] == code
    return body["error"]
