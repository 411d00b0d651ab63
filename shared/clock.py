"""The clock both services read, and the one way they write timestamps."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import overload


def now() -> datetime:
    return datetime.now(UTC)


@overload
def iso(value: datetime) -> str: ...
@overload
def iso(value: None) -> None: ...
@overload
def iso(value: datetime | None) -> str | None: ...
def iso(value: datetime | None) -> str | None:
    """Format ``value`` as ISO 8601 in UTC with a ``Z``, millisecond precision."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
