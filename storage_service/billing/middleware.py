from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import cast

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, StreamingHttpResponse
from django.http.response import HttpResponseBase

from storage_service.billing import counting, notes
from storage_service.billing.labels import endpoint_label

logger = logging.getLogger(__name__)


class UsageMiddleware:
    """Count every /v1 request of an organisation into the hourly rollups, with its bytes.

    It sits outside the rate limiter, which counts the request itself in its own round trip
    (refused requests too); this adds the bytes moved, and a streamed download's when its
    response ends, with the bytes actually sent.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not settings.USAGE_ACCOUNTING or not request.path.startswith("/v1/"):
            return self.get_response(request)
        usage = notes.RequestUsage(at=time.time())
        token = notes.current.set(usage)
        try:
            response = self.get_response(request)
        finally:
            notes.current.reset(token)
        if usage.org_id is None:  # no valid key and no signed link: nobody's usage
            return response
        usage.label = usage.label or endpoint_label(request)
        if isinstance(response, StreamingHttpResponse) and request.method != "HEAD":
            # A WSGI application's responses stream synchronously.
            chunks = cast(Iterator[bytes], response.streaming_content)
            response.streaming_content = SentBytes(chunks, lambda sent: _count_rest(usage, sent))
        else:
            _count_rest(usage, 0)
        return response


def _count_rest(usage: notes.RequestUsage, sent: int) -> None:
    """Count what the rate limiter's round trip could not: the bytes, or a request it did not
    see as an organisation's (a signed link)."""
    assert usage.org_id is not None and usage.label is not None  # both set before it counts
    rest = counting.Count(
        org_id=usage.org_id,
        label=usage.label,
        at=usage.at,
        requests=0 if usage.counted else 1,
        upload=usage.upload,
        download=usage.download + sent,
    )
    if not (rest.requests or rest.upload or rest.download):
        return
    try:
        counting.count(rest)
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
