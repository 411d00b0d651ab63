"""Per-organisation hourly rate limits by plan; requests without a valid key count per address."""

from __future__ import annotations

import time

from django.conf import settings
from django.http import HttpRequest

from shared import rate_limits
from storage_service.accounts.authentication import resolve_key
from storage_service.accounts.models import Organisation, RateLimitCounter
from storage_service.billing import counting, notes
from storage_service.billing.labels import endpoint_label


def counter() -> rate_limits.Counter:
    # Cheap to build: the Redis connection pool behind it is kept per URL.
    return rate_limits.make_counter(
        redis_url=settings.REDIS_URL,
        table=RateLimitCounter._meta.db_table,
        namespace=settings.RATE_LIMIT_NAMESPACE,
    )


def org_bucket(org: Organisation) -> str:
    return f"org:{org.pk}"


def request_bucket(request: HttpRequest) -> tuple[str, int]:
    """Return the bucket a request counts against and that bucket's hourly limit."""
    auth = resolve_key(request)
    if auth.org is not None:
        return org_bucket(auth.org), auth.org.plan_limits["requestsPerHour"]
    address = request.META.get("REMOTE_ADDR") or "unknown"
    return f"addr:{address}", settings.PLANS["free"]["requestsPerHour"]


def count_request(request: HttpRequest, now: float | None = None) -> rate_limits.Decision:
    """Count the request against its limit and, for an organisation, into its usage as well.

    Usage rides on the limit's round trip; the usage middleware adds the bytes after the view.
    """
    now = now or time.time()
    bucket, limit = request_bucket(request)
    usage = notes.current.get()
    org = resolve_key(request).org
    if usage is None or org is None:
        return rate_limits.hit(counter(), bucket=bucket, limit=limit, now=now)
    usage.org_id, usage.label = org.pk, endpoint_label(request)
    window = rate_limits.window_at(now)
    hits = counting.count_with_limit(
        counter(),
        bucket=bucket,
        window=window,
        usage=counting.Count(org_id=org.pk, label=usage.label, at=usage.at),
    )
    usage.counted = True
    return rate_limits.Decision(limit=limit, count=hits, window=window, now=int(now))


def requests_this_hour(org: Organisation, now: float | None = None) -> int:
    window = rate_limits.window_at(now or time.time())
    return counter().get(org_bucket(org), window)
