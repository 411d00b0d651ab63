"""What both services' tests call them with: API clients holding a key, several at once."""

from __future__ import annotations

import multiprocessing
from typing import Any

from django.db import connections
from rest_framework.test import APIClient

Call = tuple[str, str, Any]  # method, path, JSON body (or None)


def bearer_client(key: Any) -> APIClient:
    """An APIClient sending ``key`` (a factory's key, with its ``secret``, or a raw secret) as
    its Bearer token; no token when ``key`` is None."""
    client = APIClient()
    if key is not None:
        secret = key if isinstance(key, str) else key.secret
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def _call(secret: str, method: str, path: str, body: Any, start, results) -> None:
    client = bearer_client(secret)
    start.wait(timeout=60)
    response = getattr(client, method)(path, body, format="json")
    results.put((path, response.status_code, response.json()))
    connections.close_all()


def race(secret: str, calls: list[Call]) -> list[tuple[str, int, Any]]:
    """Make each (method, path, body) call from its own process, as gunicorn's workers would,
    all released together; return (path, status, body) of each, in the order they finished."""
    connections.close_all()  # a forked child must not share the parent's connection
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(len(calls)), context.Queue()
    workers = [
        context.Process(target=_call, args=(secret, *call, start, results)) for call in calls
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    return outcomes
