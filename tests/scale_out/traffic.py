"""Requests to the instances with their status and headers, alone or in concurrent bursts.

``tests.bench.client.call`` raises on anything but a success; these checks judge refusals (401,
404, 429) and headers as much as successes, so every answer is returned whole.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.message import Message
from typing import Any
from urllib.parse import urlsplit

from tests.bench.client import Api

# One request of a burst: the instance, a connection to it kept alive, and the request's number.
Request = Callable[[Api, http.client.HTTPConnection, int], "Answer"]


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message  # looked up by any case of a name
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    def error_code(self) -> str | None:
        """The storage envelope's error code, or None for a success or a body without one."""
        try:
            error = self.json().get("error")
        except (ValueError, AttributeError):
            return None
        return error.get("code") if isinstance(error, dict) else None

    def described(self) -> str:
        """The status, with the error code when there is one: ``404 FOLDER_NOT_FOUND``."""
        code = self.error_code()
        return f"{self.status}{f' {code}' if code else ''}"


def send(
    api: Api,
    method: str,
    path: str,
    payload: Mapping[str, Any] | None = None,
    *,
    conn: http.client.HTTPConnection | None = None,
    headers: Mapping[str, str] | None = None,
) -> Answer:
    """Send one request, on ``conn`` when given (kept alive), else on a connection of its own."""
    own = conn is None
    conn = conn or api.connect()
    sent = {**api.auth(), **(headers or {})}
    body = None
    if payload is not None:
        body = json.dumps(payload).encode()
        sent["Content-Type"] = "application/json"
    try:
        conn.request(method, path, body=body, headers=sent)
        response = conn.getresponse()
        return Answer(response.status, response.msg, response.read())
    finally:
        if own:
            conn.close()


def fetch(url: str, timeout: float = 60) -> Answer:
    """GET an absolute URL with no credentials (a signed link is its own), following no
    redirect."""
    parts = urlsplit(url)
    if parts.scheme != "http" or parts.hostname is None:
        raise ValueError(f"not a plain-HTTP link on this machine: {url}")
    conn = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    try:
        conn.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        response = conn.getresponse()
        return Answer(response.status, response.msg, response.read())
    finally:
        conn.close()


def burst(apis: Sequence[Api], each: int, threads: int, request: Request) -> list[list[Answer]]:
    """Send ``each`` requests to every instance at once, from ``threads`` threads per instance
    released together; return every instance's answers."""
    answers: list[list[Answer]] = [[] for _ in apis]
    next_number = [0] * len(apis)
    lock = threading.Lock()
    start = threading.Barrier(len(apis) * threads)
    failures: list[BaseException] = []

    def take(instance: int) -> int | None:
        with lock:
            if failures or next_number[instance] >= each:
                return None
            next_number[instance] += 1
            return next_number[instance] - 1

    def sender(instance: int) -> None:
        api = apis[instance]
        conn = api.connect()
        try:
            start.wait()
            while (number := take(instance)) is not None:
                answer = request(api, conn, number)
                with lock:
                    answers[instance].append(answer)
        except BaseException as exc:
            with lock:
                failures.append(exc)
            start.abort()  # a sender that never reached the barrier must not hold the others
        finally:
            conn.close()

    workers = [
        threading.Thread(target=sender, args=(instance,), daemon=True)
        for instance in range(len(apis))
        for _ in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]
    return answers
