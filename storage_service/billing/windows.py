"""The window and buckets of a usage report, from GET /billing/usage's query parameters."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings

from storage_service import clock, errors

HOUR = 3600
DAY = 24 * HOUR
PERIOD_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
DEFAULT_GRANULARITY = {"day": "hour", "week": "day", "month": "day", "year": "month"}
GRANULARITIES = ("hour", "day", "week", "month")
MAX_DAYS = 365
MAX_DATE_LENGTH = 64
# An unencoded ``+`` of an offset arrives as a space: ``2026-02-28T10:00:00 01:00``.
_SPACED_OFFSET = re.compile(r"(T[\d:.]+) (\d{2}(?::?\d{2})?)$")


@dataclass(frozen=True)
class Bucket:
    date: datetime  # the calendar unit's start
    start: int  # Unix seconds, clipped to the window
    end: int

    @property
    def hours(self) -> int:
        return (self.end - self.start) // HOUR


@dataclass(frozen=True)
class UsageWindow:
    start: int  # Unix seconds, on the hour
    end: int
    granularity: str
    buckets: list[Bucket]

    @property
    def days(self) -> float:
        return (self.end - self.start) / DAY


def usage_window(params: Mapping[str, str], *, now: datetime) -> UsageWindow:
    """Parse ``period``, ``start``, ``end`` and ``granularity``, or raise the contract's errors."""
    period = params.get("period") or "month"
    if period not in PERIOD_DAYS:
        raise errors.InvalidParameters(period=f"Must be one of {', '.join(PERIOD_DAYS)}.")
    granularity = params.get("granularity") or DEFAULT_GRANULARITY[period]
    if granularity not in GRANULARITIES:
        raise errors.InvalidParameters(granularity=f"Must be one of {', '.join(GRANULARITIES)}.")
    start = _instant(params, "start")
    end = _instant(params, "end")
    length = timedelta(days=PERIOD_DAYS[period])
    # "Until now" takes in the current hour whole, even in its first second.
    last = _floor_hour(now) + HOUR if end is None else _ceil_hour(end)
    if end is None:
        end = now
    if start is None:  # the period's length, ending with the window's last hour
        end = datetime.fromtimestamp(last, UTC)
        start = end - length
    if end <= start:
        raise errors.InvalidDateRange(
            start=clock.iso(start), end=clock.iso(end), reason="end must be after start."
        )
    days = math.ceil((end - start) / timedelta(days=1))
    if days > MAX_DAYS:
        raise errors.DateRangeTooLarge(maxDays=MAX_DAYS, requestedDays=days)
    first = _floor_hour(start)
    return UsageWindow(first, last, granularity, _buckets(first, last, granularity))


def _instant(params: Mapping[str, str], name: str) -> datetime | None:
    text = params.get(name)
    if text is None or text == "":
        return None
    value = _SPACED_OFFSET.sub(r"\1+\2", text.strip()) if len(text) <= MAX_DATE_LENGTH else ""
    try:
        parsed = datetime.fromisoformat(value)
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        parsed.timestamp()  # out of range for Unix time raises here, not later
        if not 1970 <= parsed.astimezone(UTC).year <= 9998:
            raise ValueError(name)
    except (ValueError, OverflowError, OSError):
        raise errors.InvalidParameters(
            **{name: "Must be an ISO 8601 date or date-time (1970 to 9998)."}
        ) from None
    return parsed


def _floor_hour(value: datetime) -> int:
    unix = math.floor(value.timestamp())
    return unix - unix % HOUR


def _ceil_hour(value: datetime) -> int:
    unix = math.ceil(value.timestamp())
    return unix + (-unix) % HOUR


def _unit_start(unix: int, granularity: str) -> datetime:
    moment = datetime.fromtimestamp(unix, UTC)
    if granularity == "hour":
        return moment
    day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
    if granularity == "day":
        return day
    if granularity == "week":
        return day - timedelta(days=day.weekday())
    return day.replace(day=1)


def _next_unit(start: datetime, granularity: str) -> datetime:
    if granularity == "hour":
        return start + timedelta(hours=1)
    if granularity == "day":
        return start + timedelta(days=1)
    if granularity == "week":
        return start + timedelta(days=7)
    return (start + timedelta(days=32)).replace(day=1)


def _buckets(first: int, last: int, granularity: str) -> list[Bucket]:
    limit = settings.USAGE_MAX_BUCKETS
    buckets: list[Bucket] = []
    unit = _unit_start(first, granularity)
    while int(unit.timestamp()) < last:
        if len(buckets) == limit:
            raise errors.InvalidParameters(
                granularity=f"The window holds more than {limit} buckets of a {granularity}; "
                "choose a coarser granularity or a shorter window."
            )
        following = _next_unit(unit, granularity)
        start, end = int(unit.timestamp()), int(following.timestamp())
        buckets.append(Bucket(unit, max(start, first), min(end, last)))
        unit = following
    return buckets
