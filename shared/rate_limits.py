"""Fixed-window rate limiting: windows, shared counters and the response header values.

A window is one clock hour (``[start, start + length)`` in Unix seconds). Every request adds one
to its bucket's counter for the current window, allowed or not, so the count is simply "requests
seen this hour". Counters must be shared by every process and host that serves the API, so they
live in Redis (``INCR``) or in one database table (an upsert), both atomic.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, Protocol

import redis
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)
# What a Redis call raises when the server is gone (a socket closed under a thread is an OSError
# or a ValueError).
REDIS_ERRORS = (RedisError, OSError, ValueError)

HOUR = 3600


@dataclass(frozen=True)
class Window:
    start: int
    length: int = HOUR

    @property
    def reset(self) -> int:
        """Unix time in seconds at which this window ends and the next one starts."""
        return self.start + self.length


def window_at(now: float, length: int = HOUR) -> Window:
    """Return the fixed window that contains the Unix time ``now``."""
    start = int(now) - int(now) % length
    return Window(start=start, length=length)


@dataclass(frozen=True)
class Decision:
    """The outcome of one counted request: its figures and the headers that report them."""

    limit: int
    count: int
    window: Window
    now: int

    @property
    def allowed(self) -> bool:
        return self.count <= self.limit

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    @property
    def seconds_to_reset(self) -> int:
        return max(0, self.window.reset - self.now)

    def headers(self, policy: str = "hourly") -> dict[str, str]:
        """Return the ``X-RateLimit-*`` headers and the IETF ``RateLimit`` and ``RateLimit-Policy``.

        The IETF fields follow draft-ietf-httpapi-ratelimit-headers (structured fields:
        ``q`` quota, ``w`` window seconds, ``r`` remaining, ``t`` seconds until reset).
        """
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": str(self.window.reset),
            "RateLimit-Policy": f'"{policy}";q={self.limit};w={self.window.length}',
            "RateLimit": f'"{policy}";r={self.remaining};t={self.seconds_to_reset}',
        }
        if not self.allowed:
            headers["Retry-After"] = str(self.seconds_to_reset)
        return headers


class Counter(Protocol):
    def incr(self, bucket: str, window: Window) -> int:
        """Add one to ``bucket`` in ``window`` and return the new count."""
        ...

    def get(self, bucket: str, window: Window) -> int:
        """Return the count of ``bucket`` in ``window`` without changing it."""
        ...


class RedisCounter:
    """Counters as Redis keys that expire shortly after their window ends.

    While Redis cannot be reached, ``fallback`` (the database's counter, which every instance
    shares too) counts instead, so no request fails for it; see ``redis_usable``.
    """

    def __init__(self, url: str, namespace: str, fallback: DatabaseCounter) -> None:
        self.url = url
        self.namespace = namespace
        self.fallback = fallback

    def key(self, bucket: str, window: Window) -> str:
        """The Redis key of ``bucket``'s counter in ``window``."""
        return f"{self.namespace}:rl:{bucket}:{window.start}"

    def incr(self, bucket: str, window: Window) -> int:
        if not redis_usable(self.url):
            return self.fallback.incr(bucket, window)
        key = self.key(bucket, window)
        try:
            with redis_client(self.url).pipeline(transaction=True) as pipe:
                pipe.incr(key)
                pipe.expireat(key, window.reset + 60)
                count, _ = pipe.execute()
        except REDIS_ERRORS as exc:
            redis_failed(self.url, exc)
            return self.fallback.incr(bucket, window)
        return int(count)

    def get(self, bucket: str, window: Window) -> int:
        if not redis_usable(self.url):
            return self.fallback.get(bucket, window)
        try:
            value = redis_client(self.url).get(self.key(bucket, window))
        except REDIS_ERRORS as exc:
            redis_failed(self.url, exc)
            return self.fallback.get(bucket, window)
        return int(value or 0)


_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def redis_client(url: str) -> Any:
    """The process's one client for ``url``, made once even when threads ask at the same time.

    Two clients made at once would leave one unreferenced, and its pool would close, as it is
    collected, the connection the other thread is using.
    """
    client = _clients.get(url)
    if client is None:
        with _clients_lock:
            client = _clients.get(url)
            if client is None:
                # redis-py's pool notices a fork and opens fresh connections in the child.
                client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
                _clients[url] = client
    return client


@functools.cache
def registered_script(client: Any, source: str) -> Any:
    """The Lua ``source`` as a script of ``client``: sent by its hash (EVALSHA), loaded once."""
    return client.register_script(source)


# While Redis is down, each instance retries it at most this often, so a request does not wait
# for a connect timeout every time.
REDIS_RETRY_SECONDS = 5.0
_down_until: dict[str, float] = {}


def redis_usable(url: str) -> bool:
    """False for a few seconds after Redis at ``url`` failed: use the database meanwhile."""
    return time.monotonic() >= _down_until.get(url, 0.0)


def redis_failed(url: str, exc: BaseException) -> None:
    """Note that Redis failed; the first failure of an outage is logged (without the URL's
    credentials), later ones until it is retried are not."""
    if redis_usable(url):
        logger.warning(
            "Redis unreachable (%s); counting in the database for %ss",
            type(exc).__name__,
            REDIS_RETRY_SECONDS,
        )
    _down_until[url] = time.monotonic() + REDIS_RETRY_SECONDS


class DatabaseCounter:
    """Counters as rows ``(bucket, window_start, hits)`` of a table the service's migrations create.

    One upsert statement increments atomically on PostgreSQL and SQLite (3.35+), so concurrent
    requests never lose a count and never race on the first insert.
    """

    def __init__(self, table: str, namespace: str, using: str = "default") -> None:
        self.table = table
        self.namespace = namespace
        self.using = using

    def _bucket(self, bucket: str) -> str:
        return f"{self.namespace}:{bucket}"

    def incr(self, bucket: str, window: Window, also: tuple[str, list] | None = None) -> int:
        """Add one to ``bucket`` in ``window``; ``also`` is one more ``INSERT`` (SQL and
        parameters) to run with it, in the same statement on PostgreSQL (one round trip, one
        commit) and in the same transaction elsewhere."""
        from django.db import connections, transaction

        connection = connections[self.using]
        sql = (
            f"INSERT INTO {self.table} (bucket, window_start, hits) VALUES (%s, %s, 1) "  # noqa: S608
            f"ON CONFLICT (bucket, window_start) DO UPDATE SET hits = {self.table}.hits + 1 "
            "RETURNING hits"
        )
        params: list[str | int] = [self._bucket(bucket), window.start]
        if also is not None and connection.vendor == "postgresql":
            sql, params, also = f"WITH also AS ({also[0]}) {sql}", [*also[1], *params], None
        together = transaction.atomic(using=self.using) if also is not None else nullcontext()
        with together, connection.cursor() as cursor:
            if also is not None:
                cursor.execute(*also)
            cursor.execute(sql, params)
            (count,) = cursor.fetchone()
            if count == 1:
                # The first request of a window for this bucket sweeps rows of finished windows.
                cursor.execute(
                    f"DELETE FROM {self.table} WHERE window_start < %s",  # noqa: S608
                    [window.start - window.length],
                )
        return int(count)

    def get(self, bucket: str, window: Window) -> int:
        from django.db import connections

        sql = f"SELECT hits FROM {self.table} WHERE bucket = %s AND window_start = %s"  # noqa: S608
        with connections[self.using].cursor() as cursor:
            cursor.execute(sql, [self._bucket(bucket), window.start])
            row = cursor.fetchone()
        return int(row[0]) if row else 0


def make_counter(
    *, redis_url: str | None, table: str, namespace: str
) -> RedisCounter | DatabaseCounter:
    """Return a Redis counter when ``redis_url`` is set, the database table's counter otherwise."""
    database = DatabaseCounter(table, namespace)
    if redis_url:
        return RedisCounter(redis_url, namespace, fallback=database)
    return database


def hit(counter: Counter, *, bucket: str, limit: int, now: float) -> Decision:
    """Count one request of ``bucket`` at ``now`` and decide whether it is within ``limit``."""
    window = window_at(now)
    count = counter.incr(bucket, window)
    return Decision(limit=limit, count=count, window=window, now=int(now))
