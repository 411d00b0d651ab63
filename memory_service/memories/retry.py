"""Running a write again when PostgreSQL aborted it to break a deadlock or a serialisation race,
or when it lost a race to store the same memory."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, OperationalError

T = TypeVar("T")

# deadlock_detected, serialization_failure: the transaction did nothing and may simply run again.
RETRYABLE_SQLSTATES = {"40P01", "40001"}
ATTEMPTS = 3


class Conflict(IntegrityError):
    """A write lost a race that running it again settles (another request stored the same
    memory first). Left unsettled it is a database error like any other."""


def retry_on_conflict(write: Callable[[], T]) -> Callable[[], T]:
    """Run ``write`` again (up to three times in all) when the database aborted it as a conflict."""

    @functools.wraps(write)
    def run() -> T:
        for attempt in range(ATTEMPTS):
            try:
                return write()
            except Conflict:
                if attempt == ATTEMPTS - 1:
                    raise
            except OperationalError as exc:
                sqlstate = getattr(exc.__cause__, "sqlstate", None)
                if sqlstate not in RETRYABLE_SQLSTATES or attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    return run
