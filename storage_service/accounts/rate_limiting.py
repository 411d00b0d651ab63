"""Per-organisation hourly rate limits by plan; requests without a valid key count per address."""

from __future__ import annotations

import time

from django.conf import settings
from django.http import HttpRequest

from shared import key_cache, rate_limits
from storage_service.accounts.authentication import KeyAuth, forget_key, resolve_key
from storage_service.accounts.models import Organisation, RateLimitCounter
from storage_service.billing import counting, notes
from storage_service.billing.labels import endpoint_label


def counter() -> rate_limits.RedisCounter | rate_limits.DatabaseCounter:
    # Cheap to build: the Redis connection pool behind it is kept per URL.
    return rate_limits.make_counter(
        redis_url=settings.REDIS_URL,
        table=RateLimitCounter._meta.db_table,
        namespace=settings.RATE_LIMIT_NAMESPACE,
    )


def org_bucket(org: Organisation) -> str:
    return f"org:{org.pk}"


def count_request(request: HttpRequest, now: float | None = None) -> rate_limits.Decision:
    """Count the request against its limit and, for an organisation, into its usage as well.

    Usage rides on the limit's round trip; the usage middleware adds the bytes after the view.
    The same round trip checks the token of a key answered from the key cache; a stale one is
    read from the database again and the request counted then (and once more,
    without the cache, if it changed again meanwhile).
    """
    now = now or time.time()
    window = rate_limits.window_at(now)
    for attempt in range(2):
        try:
            return _count(request, resolve_key(request), window, now)
        except key_cache.Stale as stale:
            # A second change while this request was served: read it without the cache.
            forget_key(request, stale.token if attempt == 0 else None)
    return _count(request, resolve_key(request), window, now)


def _count(
    request: HttpRequest, auth: KeyAuth, window: rate_limits.Window, now: float
) -> rate_limits.Decision:
    if auth.org is None:
        address = request.META.get("REMOTE_ADDR") or "unknown"
        count = counter().incr(f"addr:{address}", window)
        limit = settings.PLANS["free"]["requestsPerHour"]
        return rate_limits.Decision(limit=limit, count=count, window=window, now=int(now))
    usage = notes.current.get()
    label, this_request = None, None
    if usage is not None:
        label = endpoint_label(request)
        this_request = counting.Count(org_id=auth.org.pk, label=label, at=usage.at)
    count = counting.count_with_limit(
        counter(),
        bucket=org_bucket(auth.org),
        window=window,
        usage=this_request,
        token=auth.token,
    )
    if usage is not None:
        usage.org_id, usage.label, usage.counted = auth.org.pk, label, True
    limit = auth.org.plan_limits["requestsPerHour"]
    return rate_limits.Decision(limit=limit, count=count, window=window, now=int(now))


def requests_this_hour(org: Organisation, now: float | None = None) -> int:
    window = rate_limits.window_at(now or time.time())
    return counter().get(org_bucket(org), window)
