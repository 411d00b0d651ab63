"""The window and buckets of a usage report, from GET /billing/usage's query parameters."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from itertools import pairwise

from django.conf import settings

from storage_service import clock, errors

HOUR = 3600
DAY = 24 * HOUR
WEEK = 7 * DAY
PERIOD_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
DEFAULT_GRANULARITY = {"day": "hour", "week": "day", "month": "day", "year": "month"}
GRANULARITIES = ("hour", "day", "week", "month")
MAX_DAYS = 365
MAX_DATE_LENGTH = 64
# An unencoded ``+`` of an offset arrives as a space: ``2026-02-28T10:00:00 01:00``.
_SPACED_OFFSET = re.compile(r"(T[\d:.]+) (\d{2}(?::?\d{2})?)$")

QUERY_PARAMETERS = ("period", "start", "end", "granularity")


@dataclass(frozen=True)
class Bucket:
    date: int  # Unix seconds at the calendar unit's start
    start: int  # clipped to the window
    end: int

    @property
    def hours(self) -> int:
        return (self.end - self.start) // HOUR

    @property
    def iso(self) -> str:
        """The unit's start as the service writes times; units start on the hour."""
        day = self.date - self.date % DAY
        return f"{_day_prefix(day)}{(self.date - day) // HOUR:02d}:00:00.000Z"


@lru_cache(maxsize=512)
def _day_prefix(day: int) -> str:
    return time.strftime("%Y-%m-%dT", time.gmtime(day))


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


def _unit_starts(first: int, last: int, granularity: str) -> list[int]:
    """The starts of the calendar units from the one holding ``first`` up to ``last``, and the
    start of the unit after them; None when there would be more units than a report carries."""
    limit = settings.USAGE_MAX_BUCKETS
    if granularity == "month":
        unit = datetime.fromtimestamp(first, UTC).replace(day=1, hour=0)
        starts = [int(unit.timestamp())]
        while starts[-1] < last and len(starts) <= limit:
            unit = (unit + timedelta(days=32)).replace(day=1)
            starts.append(int(unit.timestamp()))
    else:
        step = {"hour": HOUR, "day": DAY, "week": WEEK}[granularity]
        origin = first - first % step
        if granularity == "week":  # ISO weeks start on Monday; 1970-01-01 was a Thursday
            origin = first - (first + 3 * DAY) % WEEK
        count = -((origin - last) // step)  # rounded up
        starts = [origin + step * index for index in range(min(count, limit + 1) + 1)]
    if len(starts) - 1 > limit:
        raise errors.InvalidParameters(
            granularity=f"The window holds more than {limit} buckets of a {granularity}; "
            "choose a coarser granularity or a shorter window."
        )
    return starts


def _buckets(first: int, last: int, granularity: str) -> list[Bucket]:
    starts = _unit_starts(first, last, granularity)
    return [Bucket(start, max(start, first), min(end, last)) for start, end in pairwise(starts)]
