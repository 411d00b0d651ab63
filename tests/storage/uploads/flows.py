"""The client's side of a multipart upload, step by step, for the tests to drive."""

from __future__ import annotations

import hashlib
import os
from typing import Any

from django.http import StreamingHttpResponse
from rest_framework.test import APIClient

PART_SIZE = 1024


def data_of(size: int) -> bytes:
    return os.urandom(size)


def error_of(response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["success"] is False and "data" not in body
    return body["error"]


def data_ok(response) -> dict[str, Any]:
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["success"] is True and body["error"] is None
    return body["data"]


def start(client: APIClient, **body: Any):
    return client.post("/v1/files/multipart-upload-start", body, format="json")


def started(client: APIClient, data: bytes, name: str = "blob.bin", **body: Any) -> dict:
    body.setdefault("partSize", PART_SIZE)
    return data_ok(start(client, name=name, size=len(data), **body))


def put_part(client: APIClient, url: str, chunk: bytes, **extra: Any):
    return client.put(url, data=chunk, content_type="application/octet-stream", **extra)


def chunk_of(upload: dict, data: bytes, part_number: int) -> bytes:
    offset = (part_number - 1) * upload["partSize"]
    return data[offset : offset + upload["partSize"]]


def put_parts(client: APIClient, upload: dict, data: bytes, order=None) -> list[dict]:
    """PUT every part (in ``order`` of part numbers if given); return the parts list to complete."""
    urls = {part["partNumber"]: part["url"] for part in upload["parts"]}
    etags = {}
    for number in order or sorted(urls):
        answer = data_ok(put_part(client, urls[number], chunk_of(upload, data, number)))
        etags[number] = answer["etag"]
    return [{"partNumber": number, "etag": etags[number]} for number in sorted(etags)]


def complete(client: APIClient, upload_id: str, parts: list[dict]):
    body = {"uploadId": upload_id, "parts": parts}
    return client.post("/v1/files/multipart-upload-complete", body, format="json")


def abort(client: APIClient, upload_id: str):
    return client.delete(f"/v1/files/multipart-upload/{upload_id}")


def part_url(upload_id: str, part_number: int) -> str:
    return f"/v1/files/multipart-upload/{upload_id}/parts/{part_number}"


def uploaded(client: APIClient, data: bytes, **body: Any) -> tuple[dict, list[dict]]:
    """Start an upload of ``data`` and PUT all its parts; return it and the parts to complete."""
    upload = started(client, data, **body)
    return upload, put_parts(client, upload, data)


def etag_of(chunk: bytes) -> str:
    return hashlib.sha256(chunk).hexdigest()


def downloaded(client: APIClient, file: dict) -> bytes:
    response = client.get(file["url"])
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    # The test client closes the response once its content is consumed, as a WSGI server would.
    return b"".join(response.streaming_content)
