from __future__ import annotations

import multiprocessing
import threading
import time
import uuid

import pytest
from django.conf import settings
from django.db import connections

from shared import rate_limits
from shared.rate_limits import Decision, Window, window_at

TABLE = "rate_limit_counter"
COUNTER_KINDS = ["database", "redis"] if settings.REDIS_URL else ["database"]


def _counter(kind: str, namespace: str) -> rate_limits.Counter:
    database = rate_limits.DatabaseCounter(TABLE, namespace)
    if kind == "redis":
        return rate_limits.RedisCounter(settings.REDIS_URL, namespace, fallback=database)
    return database


def make_counter(kind: str) -> rate_limits.Counter:
    return _counter(kind, f"test-{uuid.uuid4().hex[:8]}")


def test_window_is_the_clock_hour_containing_now():
    window = window_at(7200 + 1799.5)
    assert (window.start, window.reset) == (7200, 10800)
    assert window_at(10800).start == 10800


def test_headers_report_limit_remaining_reset_and_the_ietf_fields():
    decision = Decision(limit=1000, count=1, window=Window(start=7200), now=9000)
    assert decision.headers() == {
        "X-RateLimit-Limit": "1000",
        "X-RateLimit-Remaining": "999",
        "X-RateLimit-Reset": "10800",
        "RateLimit-Policy": '"hourly";q=1000;w=3600',
        "RateLimit": '"hourly";r=999;t=1800',
    }


def test_over_the_limit_remaining_stays_at_zero_and_retry_after_is_set():
    decision = Decision(limit=10, count=12, window=Window(start=0), now=600)
    assert not decision.allowed
    headers = decision.headers()
    assert headers["X-RateLimit-Remaining"] == "0"
    assert headers["Retry-After"] == "3000"


def test_the_request_that_reaches_the_limit_is_still_allowed():
    assert Decision(limit=10, count=10, window=Window(start=0), now=1).allowed


@pytest.mark.django_db
@pytest.mark.parametrize("kind", COUNTER_KINDS)
def test_counts_grow_per_bucket_and_window(kind):
    counter = make_counter(kind)
    hour, next_hour = Window(start=3600 * 500_000), Window(start=3600 * 500_001)
    assert [counter.incr("a", hour) for _ in range(3)] == [1, 2, 3]
    assert counter.incr("b", hour) == 1
    assert counter.incr("a", next_hour) == 1
    assert counter.get("a", hour) == 3
    assert counter.get("never", hour) == 0


@pytest.mark.django_db
def test_database_counter_sweeps_rows_of_finished_windows():
    counter = make_counter("database")
    old, now = Window(start=0), Window(start=3600 * 10)
    counter.incr("a", old)
    counter.incr("b", now)
    assert counter.get("a", old) == 0


@pytest.mark.django_db
@pytest.mark.parametrize("kind", COUNTER_KINDS)
def test_hit_decides_against_the_limit(kind):
    counter = make_counter(kind)
    decisions = [rate_limits.hit(counter, bucket="x", limit=2, now=1_800_000_000) for _ in range(3)]
    assert [d.allowed for d in decisions] == [True, True, False]
    assert decisions[-1].remaining == 0


def _increment_many(kind: str, namespace: str, window: Window, times: int) -> None:
    counter = _counter(kind, namespace)
    for _ in range(times):
        counter.incr("shared-bucket", window)
    connections.close_all()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", COUNTER_KINDS)
def test_concurrent_increments_from_several_processes_lose_no_count(kind):
    processes, times = 6, 150
    namespace = f"test-{uuid.uuid4().hex[:8]}"
    window = window_at(time.time())  # a past window would expire at once in Redis
    connections.close_all()  # a forked child must not share the parent's connection
    context = multiprocessing.get_context("fork")
    workers = [
        context.Process(target=_increment_many, args=(kind, namespace, window, times))
        for _ in range(processes)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert [worker.exitcode for worker in workers] == [0] * processes
    assert _counter(kind, namespace).get("shared-bucket", window) == processes * times


NOWHERE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.mark.django_db
def test_an_unreachable_redis_counts_in_the_database_and_is_retried_later(caplog):
    counter = rate_limits.make_counter(redis_url=NOWHERE, table=TABLE, namespace="down")
    window = window_at(time.time())
    assert [counter.incr("org:a", window) for _ in range(3)] == [1, 2, 3]
    assert counter.get("org:a", window) == 3
    assert rate_limits.DatabaseCounter(TABLE, "down").get("org:a", window) == 3
    warnings = [r for r in caplog.records if "Redis unreachable" in r.getMessage()]
    assert len(warnings) == 1  # once per outage, not once per request
    assert "127.0.0.1:1" not in warnings[0].getMessage()
    assert not rate_limits.redis_usable(NOWHERE)
    rate_limits._down_until[NOWHERE] = time.monotonic() - 1  # the retry pause is over
    assert rate_limits.redis_usable(NOWHERE)
    assert counter.incr("org:a", window) == 4  # tried Redis again, fell back again


def test_threads_asking_for_a_client_at_once_share_one():
    """Two clients made at once left one to be collected, closing the other's connection."""
    url = "redis://127.0.0.1:6379/15"
    for _ in range(20):
        rate_limits._clients.pop(url, None)
        barrier = threading.Barrier(16)
        got = []

        def ask(barrier=barrier, got=got):
            barrier.wait()
            got.append(rate_limits.redis_client(url))

        threads = [threading.Thread(target=ask) for _ in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len({id(client) for client in got}) == 1
