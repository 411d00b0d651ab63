"""PostgreSQL connections: a reused one is checked only after it sat idle (shared/postgresql),
and the queries every request repeats are prepared."""

from __future__ import annotations

import time

import pytest
from django.db import OperationalError, connection, connections

from shared.postgresql.base import BUSY_SECONDS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's backend"),
]


def request_starts() -> None:
    """What Django does with the connection at the start of a request, then its first query."""
    connection.close_if_unusable_or_obsolete()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def kill_server_side() -> int:
    pid = connection.connection.info.backend_pid
    other = connections.create_connection("default")
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        other.close()
    return pid


def test_a_connection_that_died_while_idle_is_replaced_before_the_request_uses_it():
    request_starts()
    pid = kill_server_side()
    connection.last_request_at = time.monotonic() - BUSY_SECONDS
    request_starts()
    assert connection.connection.info.backend_pid != pid


def test_a_connection_busy_with_requests_is_not_checked_between_them():
    request_starts()
    request_starts()
    kill_server_side()
    # Used a moment ago: trusted, as within one request, so the request meets the dead connection.
    with pytest.raises(OperationalError):
        request_starts()
    connection.close()


def test_a_query_every_request_repeats_is_prepared_once_per_connection():
    # PostgreSQL plans a prepared statement once; the fifth run of a query on a connection
    # prepares it (the files list's query is planned anew on every request otherwise).
    connection.close()
    sql = "SELECT %s::int + 1 AS repeated_by_requests"
    with connection.cursor() as cursor:
        for value in range(6):
            cursor.execute(sql, [value])
            assert cursor.fetchone() == (value + 1,)
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%repeated_by_requests%"],
        )
        assert cursor.fetchone() == (1,)
