"""GET /billing/usage: the report of one organisation's usage over a window, from the rollups.

Every figure is defined in the README's "Billing and usage"; the work is a few grouped queries
and one pass over the window's hours, so a year costs the same at any request volume.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.db import connection, transaction
from django.db.models import Sum

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.billing.labels import OTHER
from storage_service.billing.models import RequestRollup
from storage_service.billing.storage_levels import changes_between, levels_before
from storage_service.billing.windows import DAY, HOUR, UsageWindow

FILE_TYPES = ("image", "document", "video", "other")
# The line's rise across the window, relative to its mean, beyond which usage has a trend.
TREND_THRESHOLD = 0.05


@dataclass
class Tally:
    """What one bucket saw: requests and bytes moved in it, and the levels at its end."""

    requests: int = 0
    upload: int = 0
    download: int = 0
    stored: int = 0
    files: int = 0


@dataclass
class Pass:
    """The results of the one pass over the window's hours."""

    tallies: list[Tally] = field(default_factory=list)
    daily_bytes: list[int] = field(default_factory=list)
    daily_files: list[int] = field(default_factory=list)
    peak_bytes: int = 0
    peak_files: int = 0
    by_hour: list[int] = field(default_factory=lambda: [0] * 24)


def usage_report(*, org: Organisation, window: UsageWindow, now: float) -> dict:
    with transaction.atomic():  # one snapshot's worth of settings (SET LOCAL) for its queries
        return _report(org, window, now)


def _report(org: Organisation, window: UsageWindow, now: float) -> dict:
    requests = _requests_by_hour(org.pk, window)
    base = levels_before(org_id=org.pk, hour=window.start)
    changes = changes_between(org_id=org.pk, start=window.start, end=window.end)
    run = _walk(window, requests, changes, start_bytes=_sum(base, 0), start_files=_sum(base, 1))
    for _, category, size, files in changes:
        base.setdefault(category, [0, 0])
        base[category][0] += size
        base[category][1] += files
    limits = org.plan_limits
    tallies = run.tallies
    total_requests = sum(t.requests for t in tallies)
    end = tallies[-1] if tallies else Tally()
    # Per cent of the storage limit, of the hourly requests, of the files' peak (8,760 items for
    # a year by the hour, so the factors are worked out once).
    of_storage = 100 / limits["storageLimit"]
    of_hourly = 100 / limits["requestsPerHour"]
    of_peak = 100 / run.peak_files if run.peak_files else 0
    timeline = [
        {
            "date": bucket.iso,
            "storage": {"used": t.stored, "percentage": round(t.stored * of_storage, 2)},
            "requests": {
                "count": t.requests,
                "percentage": round(t.requests * of_hourly / bucket.hours, 2),
            },
            "files": {"count": t.files, "percentage": round(t.files * of_peak, 2)},
            "bandwidth": {"upload": t.upload, "download": t.download},
        }
        for bucket, t in zip(window.buckets, tallies, strict=True)
    ]
    begun = sum(1 for bucket in window.buckets if bucket.start <= now)
    return {
        "period": {
            "start": clock.iso(_datetime(window.start)),
            "end": clock.iso(_datetime(window.end)),
            "granularity": window.granularity,
        },
        "summary": {
            "storage": _level_summary(end.stored, run.daily_bytes, run.peak_bytes, "bytes"),
            "requests": {
                "total": total_requests,
                "average": round(total_requests / window.days, 2),
                "peak": max((t.requests for t in tallies), default=0),
                "unit": "requests",
            },
            "files": _level_summary(end.files, run.daily_files, run.peak_files, "files"),
            "bandwidth": {
                "upload": sum(t.upload for t in tallies),
                "download": sum(t.download for t in tallies),
                "unit": "bytes",
            },
        },
        "timeline": timeline,
        "breakdown": {
            "byFileType": _by_file_type(base),
            "byEndpoint": _by_endpoint(org.pk, window, total_requests),
            "byHour": {str(hour): count for hour, count in enumerate(run.by_hour)},
        },
        "projections": {
            "storage": _project_level([t.stored for t in tallies[:begun]], len(tallies)),
            "requests": _project_count([t.requests for t in tallies[:begun]], len(tallies)),
        },
    }


def _requests_by_hour(org_id: str, window: UsageWindow) -> dict[int, tuple[int, int, int]]:
    table = RequestRollup._meta.db_table
    sql = (
        "SELECT hour, SUM(requests), SUM(upload_bytes), SUM(download_bytes) "  # noqa: S608
        f"FROM {table} WHERE organisation_id = %s AND hour >= %s AND hour < %s GROUP BY hour"
    )
    # A cursor, not the ORM: up to 8,784 rows, and the ORM's per-value converters cost more than
    # the query on a year by the hour.
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Planning a JIT for a few hundred thousand rows costs more than it saves.
            cursor.execute("SET LOCAL jit = off")
        cursor.execute(sql, [org_id, window.start, window.end])
        return {hour: (int(r), int(u), int(d)) for hour, r, u, d in cursor.fetchall()}


def _walk(
    window: UsageWindow,
    requests: dict[int, tuple[int, int, int]],
    changes: Sequence[tuple[int, str, int, int]],
    *,
    start_bytes: int,
    start_files: int,
) -> Pass:
    moved: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for hour, _, size, files in changes:
        moved[hour][0] += size
        moved[hour][1] += files
    run = Pass(peak_bytes=start_bytes, peak_files=start_files)
    stored, count = start_bytes, start_files
    for bucket in window.buckets:
        tally = Tally()
        for hour in range(bucket.start, bucket.end, HOUR):
            if hour in moved:
                stored += moved[hour][0]
                count += moved[hour][1]
                run.peak_bytes = max(run.peak_bytes, stored)
                run.peak_files = max(run.peak_files, count)
            if hour in requests:
                r, u, d = requests[hour]
                tally.requests += r
                tally.upload += u
                tally.download += d
                run.by_hour[(hour // HOUR) % 24] += r
            if (hour + HOUR) % DAY == 0 or hour + HOUR == window.end:
                run.daily_bytes.append(stored)
                run.daily_files.append(count)
        tally.stored, tally.files = stored, count
        run.tallies.append(tally)
    return run


def _level_summary(total: int, daily: list[int], peak: int, unit: str) -> dict:
    average = round(sum(daily) / len(daily), 2) if daily else 0.0
    return {"total": total, "average": average, "peak": peak, "unit": unit}


def _by_file_type(levels: dict) -> dict:
    folded: dict[str, list[int]] = {name: [0, 0] for name in FILE_TYPES}
    for category, (size, files) in levels.items():
        target = folded[category if category in folded else "other"]
        target[0] += size
        target[1] += files
    stored = sum(size for size, _ in folded.values())
    return {
        name: {"count": files, "size": size, "percentage": _pct(size, stored)}
        for name, (size, files) in folded.items()
    }


def _by_endpoint(org_id: str, window: UsageWindow, total: int) -> dict:
    rows = (
        RequestRollup.objects.filter(
            organisation_id=org_id, hour__gte=window.start, hour__lt=window.end
        )
        .values("endpoint")
        .annotate(r=Sum("requests"))
        .order_by()
        .values_list("endpoint", "r")
    )
    counts = {OTHER: 0, **{label: r for label, r in rows if r}}
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return {label: {"count": r, "percentage": _pct(r, total)} for label, r in ordered}


def _line(values: Sequence[int]) -> tuple[float, float]:
    """Least-squares intercept and slope of ``values`` against 0, 1, 2, ..."""
    n = len(values)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    spread = sum((x - mean_x) ** 2 for x in range(n))
    slope = sum((x - mean_x) * (y - mean_y) for x, y in enumerate(values)) / spread
    return mean_y - slope * mean_x, slope


def _trend(values: Sequence[int]) -> tuple[str, float, float]:
    if len(values) < 2:
        only = values[0] if values else 0
        return "stable", float(only), 0.0
    intercept, slope = _line(values)
    mean = sum(values) / len(values)
    rise = slope * (len(values) - 1)
    if mean == 0 or abs(rise) <= TREND_THRESHOLD * mean:
        return "stable", intercept, slope
    return ("increasing" if rise > 0 else "decreasing"), intercept, slope


def _project_level(values: Sequence[int], buckets: int) -> dict:
    trend, intercept, slope = _trend(values)
    return {
        "currentTrend": trend,
        "projectedEndOfPeriod": _whole(intercept + slope * (buckets - 1)),
        "projectedNextPeriod": _whole(intercept + slope * (2 * buckets - 1)),
    }


def _project_count(values: Sequence[int], buckets: int) -> dict:
    trend, intercept, slope = _trend(values)
    ahead = sum(max(0.0, intercept + slope * x) for x in range(len(values), buckets))
    following = sum(max(0.0, intercept + slope * x) for x in range(buckets, 2 * buckets))
    return {
        "currentTrend": trend,
        "projectedEndOfPeriod": _whole(sum(values) + ahead),
        "projectedNextPeriod": _whole(following),
    }


def _whole(value: float) -> int:
    return max(0, round(value))


def _pct(part: float, whole: float) -> float:
    return round(part * 100 / whole, 2) if whole else 0.0


def _sum(levels: dict, index: int) -> int:
    return sum(level[index] for level in levels.values())


def _datetime(unix: int) -> datetime:
    return datetime.fromtimestamp(unix, UTC)
