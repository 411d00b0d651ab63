from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from storage_service.accounts.authentication import resolve_key
from storage_service.billing import counting, notes
from storage_service.billing.labels import endpoint_label

logger = logging.getLogger(__name__)


class UsageMiddleware:
    """Count every /v1 request of an organisation into the hourly rollups, with its bytes.

    It sits outside the rate limiter, so refused requests count too. A streamed download is
    counted when its response ends, with the bytes actually sent.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.USAGE_ACCOUNTING or not request.path.startswith("/v1/"):
            return self.get_response(request)
        usage = notes.RequestUsage(at=time.time())
        token = notes.current.set(usage)
        try:
            response = self.get_response(request)
        finally:
            notes.current.reset(token)
        if usage.org_id is None:
            org = resolve_key(request).org
            usage.org_id = org.pk if org is not None else None
        if usage.org_id is None:
            return response
        label = endpoint_label(request, response)
        if response.streaming and request.method != "HEAD":
            response.streaming_content = SentBytes(
                response.streaming_content, lambda sent: _count(usage, label, sent)
            )
        else:
            _count(usage, label, 0)
        return response


def _count(usage: notes.RequestUsage, label: str, sent: int) -> None:
    try:
        counting.count(
            org_id=usage.org_id,
            label=label,
            at=usage.at,
            upload=usage.upload,
            download=usage.download + sent,
        )
    except DatabaseError:
        logger.exception("Usage not counted")


class SentBytes:
    """Stream ``chunks`` and report how many bytes went out, once, when the response ends.

    A class rather than a generator: the server calls ``close`` even when it never started the
    stream (a client gone at once), and a generator's ``finally`` would not run then.
    """

    def __init__(self, chunks: Iterable[bytes], on_end: Callable[[int], None]) -> None:
        self._chunks = iter(chunks)
        self._on_end: Callable[[int], None] | None = on_end
        self.sent = 0

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        try:
            chunk = next(self._chunks)
        except StopIteration:
            self.close()
            raise
        self.sent += len(chunk)
        return chunk

    def close(self) -> None:
        on_end, self._on_end = self._on_end, None
        if on_end is not None:
            on_end(self.sent)
