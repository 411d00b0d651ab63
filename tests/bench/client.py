"""The bench's HTTP client: keep-alive JSON calls, streamed uploads and timed GETs (stdlib only).

Upload bodies are streamed from a file in 1 MiB chunks with a Content-Length set up front, so the
client never holds a file in memory, whatever its size.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import math
import os
import queue
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

CHUNK_SIZE = 1024 * 1024


class ApiError(RuntimeError):
    """An answer that was not a success, with its status and body."""

    def __init__(self, what: str, status: int, body: bytes) -> None:
        super().__init__(f"{what}: HTTP {status}: {body[:500]!r}")
        self.status = status


@dataclass(frozen=True)
class Source:
    """A file of random bytes to upload, with its size and SHA-256."""

    path: str
    size: int
    sha256: str


def source_create(path: str, size: int) -> Source:
    """Write ``size`` random bytes to ``path`` in chunks, hashing them on the way."""
    digest = hashlib.sha256()
    with open(path, "wb") as out:
        remaining = size
        while remaining:
            chunk = os.urandom(min(CHUNK_SIZE, remaining))
            out.write(chunk)
            digest.update(chunk)
            remaining -= len(chunk)
        out.flush()
        os.fsync(out.fileno())
    return Source(path=path, size=size, sha256=digest.hexdigest())


@dataclass(frozen=True)
class Api:
    host: str
    port: int
    key: str
    timeout: float = 900.0

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}


def read_answer(
    what: str, response: http.client.HTTPResponse, *, envelope: bool = True
) -> dict[str, Any]:
    """Read a response and return its envelope's ``data`` (or the whole body), or raise ApiError."""
    body = response.read()
    if response.status != 200:
        raise ApiError(what, response.status, body)
    answer = json.loads(body)
    if not envelope:
        return answer
    if not answer.get("success"):
        raise ApiError(what, response.status, body)
    return answer["data"]


def call(
    api: Api,
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    payload: Mapping[str, Any] | None = None,
    *,
    envelope: bool = True,
) -> dict[str, Any]:
    """Send one JSON request on ``conn`` (kept alive) and return the answer's ``data``
    (the whole answer when the service has no ``envelope``)."""
    headers = api.auth()
    body = None
    if payload is not None:
        body = json.dumps(payload).encode()
        headers["Content-Type"] = "application/json"
    conn.request(method, path, body=body, headers=headers)
    return read_answer(f"{method} {path}", conn.getresponse(), envelope=envelope)


def _send_file_range(conn: http.client.HTTPConnection, path: str, offset: int, length: int) -> None:
    with open(path, "rb") as stream:
        stream.seek(offset)
        remaining = length
        while remaining:
            chunk = stream.read(min(CHUNK_SIZE, remaining))
            if not chunk:
                raise RuntimeError(f"{path} ended {remaining} bytes early")
            conn.send(chunk)
            remaining -= len(chunk)


def _stream_request(
    api: Api,
    conn: http.client.HTTPConnection,
    method: str,
    path: str,
    headers: Mapping[str, str],
    parts: list[bytes | tuple[str, int, int]],
) -> dict[str, Any]:
    """Send a body made of literal bytes and file ranges ``(path, offset, length)``."""
    length = sum(len(p) if isinstance(p, bytes) else p[2] for p in parts)
    conn.putrequest(method, path)
    for name, value in {**api.auth(), **headers, "Content-Length": str(length)}.items():
        conn.putheader(name, value)
    conn.endheaders()
    try:
        for part in parts:
            if isinstance(part, bytes):
                conn.send(part)
            else:
                _send_file_range(conn, *part)
    except OSError:
        # The server answered (and closed) before the body was sent: show its answer.
        pass
    return read_answer(f"{method} {path}", conn.getresponse())


@dataclass
class Upload:
    """One upload's outcome: the file record, the wall time and the time of each phase."""

    file: dict[str, Any]
    seconds: float
    phases: dict[str, float] = field(default_factory=dict)


def upload_single(api: Api, source: Source, name: str) -> Upload:
    """POST the file as multipart/form-data (file part ``file``), streamed from disk."""
    boundary = f"bench-{uuid.uuid4().hex}"
    head = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    tail = f"\r\n--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
    conn = api.connect()
    try:
        started = time.perf_counter()
        data = _stream_request(
            api,
            conn,
            "POST",
            "/v1/files/upload",
            headers,
            [head, (source.path, 0, source.size), tail],
        )
        seconds = time.perf_counter() - started
    finally:
        conn.close()
    return Upload(file=data["file"], seconds=seconds)


def _url_path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def upload_multipart(
    api: Api, source: Source, name: str, *, part_size: int, threads: int = 2
) -> Upload:
    """Start a multipart upload, PUT its parts from ``threads`` connections, then complete it."""
    conn = api.connect()
    upload_id = None
    try:
        started = time.perf_counter()
        start = call(
            api,
            conn,
            "POST",
            "/v1/files/multipart-upload-start",
            {"name": name, "size": source.size, "partSize": part_size},
        )
        upload_id = start["uploadId"]
        # gunicorn drops a connection idle past its keepalive (2 s): reconnect for complete.
        conn.close()
        size_of_parts = int(start.get("partSize") or part_size)
        expected = math.ceil(source.size / size_of_parts)
        if len(start["parts"]) != expected:
            raise RuntimeError(f"Expected {expected} part URLs, got {len(start['parts'])}")
        started_parts = time.perf_counter()
        etags = _put_parts(api, source, start["parts"], size_of_parts, threads)
        started_complete = time.perf_counter()
        done = call(
            api,
            conn,
            "POST",
            "/v1/files/multipart-upload-complete",
            {
                "uploadId": upload_id,
                "parts": [{"partNumber": n, "etag": etags[n]} for n in sorted(etags)],
            },
        )
        finished = time.perf_counter()
        upload_id = None
    finally:
        if upload_id is not None:
            _abort_quietly(api, upload_id)
        conn.close()
    return Upload(
        file=done["file"],
        seconds=finished - started,
        phases={
            "start": started_parts - started,
            "parts": started_complete - started_parts,
            "complete": finished - started_complete,
        },
    )


def _put_parts(
    api: Api, source: Source, parts: list[dict[str, Any]], part_size: int, threads: int
) -> dict[int, str]:
    work: queue.Queue[dict[str, Any]] = queue.Queue()
    for part in parts:
        work.put(part)
    etags: dict[int, str] = {}
    failures: list[BaseException] = []

    def sender() -> None:
        conn = api.connect()
        try:
            while not failures:
                try:
                    part = work.get_nowait()
                except queue.Empty:
                    return
                number = int(part["partNumber"])
                offset = (number - 1) * part_size
                length = min(part_size, source.size - offset)
                data = _stream_request(
                    api,
                    conn,
                    "PUT",
                    _url_path(part["url"]),
                    {"Content-Type": "application/octet-stream"},
                    [(source.path, offset, length)],
                )
                etags[number] = data["etag"]
        except BaseException as exc:
            failures.append(exc)
        finally:
            conn.close()

    workers = [threading.Thread(target=sender, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]
    return etags


def _abort_quietly(api: Api, upload_id: str) -> None:
    conn = api.connect()
    try:
        conn.request("DELETE", f"/v1/files/multipart-upload/{upload_id}", headers=api.auth())
        conn.getresponse().read()
    except OSError:
        pass
    finally:
        conn.close()


def timed_gets(
    api: Api,
    path: str,
    params: Mapping[str, str],
    *,
    warmup: int,
    count: int,
    check: Callable[[dict[str, Any]], None],
) -> list[float]:
    """GET ``path`` ``warmup + count`` times on one kept-alive connection; return the timed ones.

    Each time covers sending the request and reading the whole body; ``check`` sees the first
    answer's ``data`` (outside the timing).
    """
    target = f"{path}?{urlencode(params)}" if params else path
    headers = api.auth()
    conn = api.connect()
    samples: list[float] = []
    try:
        for index in range(warmup + count):
            started = time.perf_counter()
            conn.request("GET", target, headers=headers)
            response = conn.getresponse()
            body = response.read()
            elapsed = time.perf_counter() - started
            if response.status != 200:
                raise ApiError(f"GET {target}", response.status, body)
            if index == 0:
                check(json.loads(body)["data"])
            if index >= warmup:
                samples.append(elapsed)
    finally:
        conn.close()
    return samples
