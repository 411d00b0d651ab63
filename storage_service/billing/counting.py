"""Counting requests and transferred bytes into hourly rollups.

A request is counted with its rate limit (``count_with_limit``): without Redis, one upsert of its
rollup row in the limit's statement or transaction; with Redis, an addition to a hash per
organisation and hour in the limit's Lua script. Bytes moved are added after the view (``count``).
``flush`` moves the Redis hashes into the database exactly once:

1. claim: ``RENAME`` the hash to a staging name (new requests start a fresh hash) and note the
   staging name in a set, in one MULTI;
2. apply: in one database transaction, insert a ``UsageFlush`` row named for the staging hash and
   add its counts to the rollups; a staging hash whose row exists was applied already;
3. ``DEL`` the staging hash.

A flusher or worker that dies between any two steps leaves a staging hash that the next flush
applies (or finds applied), so nothing is lost and nothing counted twice.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction

from shared import key_cache, rate_limits
from shared.rate_limits import redis_client
from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.billing.models import RequestRollup, UsageFlush
from storage_service.billing.storage_levels import hour_of
from storage_service.billing.upserts import add_to_rows, adding_sql

logger = logging.getLogger(__name__)

# Hash fields are ``<label>|<figure>``; labels never hold ``|``.
FIGURES = {"r": "requests", "u": "upload_bytes", "d": "download_bytes"}
KEYS = ("organisation_id", "hour", "endpoint")
VALUES = tuple(FIGURES.values())
# A request's counts, and its hour and organisation noted as waiting for a flush. A script is one
# command with one reply, and atomic like MULTI (a claim sees all of it or none).
_COUNT = """
for index, figure in ipairs({'r', 'u', 'd'}) do
  if ARGV[index + 1] ~= '0' then
    redis.call('HINCRBY', KEYS[1], ARGV[1] .. '|' .. figure, ARGV[index + 1])
  end
end
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('SADD', KEYS[3], ARGV[6])
"""
# The same, with the rate limiter's counter of the request (KEYS[4], expiring at ARGV[7]).
_COUNT_AND_LIMIT = (
    "local hits = redis.call('INCR', KEYS[4])\n"
    "redis.call('EXPIREAT', KEYS[4], ARGV[7])\n" + _COUNT + "return hits\n"
)
# The rate limiter's counter alone (KEYS[1], expiring at ARGV[1]), when usage is not counted.
_LIMIT = """
local hits = redis.call('INCR', KEYS[1])
redis.call('EXPIREAT', KEYS[1], ARGV[1])
return hits
"""
# Remove an organisation from the set of those with unflushed hours only if it has none left.
_FORGET_ORG = """
if redis.call('SCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
"""


def _ns() -> str:
    return f"{settings.RATE_LIMIT_NAMESPACE}:usage"


def _hours_key(org_id: str) -> str:
    return f"{_ns()}:hours:{org_id}"


def _hash_key(org_id: str, hour: int) -> str:
    return f"{_ns()}:{org_id}:{hour}"


@dataclass(frozen=True)
class Count:
    """What one request adds to its organisation's rollup for its hour."""

    org_id: str
    label: str
    at: float
    requests: int = 1
    upload: int = 0
    download: int = 0

    @property
    def hour(self) -> int:
        return hour_of(self.at)

    def row(self) -> tuple:
        return (self.org_id, self.hour, self.label, self.requests, self.upload, self.download)

    def script_keys(self) -> list[str]:
        return [_hash_key(self.org_id, self.hour), _hours_key(self.org_id), f"{_ns()}:orgs"]

    def script_args(self) -> list:
        figures = [self.requests, self.upload, self.download]
        return [self.label, *figures, self.hour, self.org_id]


def count(usage: Count) -> None:
    """Add ``usage`` to the rollups: in Redis when there is one, else in the database."""
    url = settings.REDIS_URL
    if url and rate_limits.redis_usable(url):
        try:
            rate_limits.registered_script(redis_client(url), _COUNT)(
                keys=usage.script_keys(), args=usage.script_args()
            )
            return
        except rate_limits.REDIS_ERRORS as exc:  # an unreachable Redis must not lose the count
            rate_limits.redis_failed(url, exc)
    add_to_rows(RequestRollup._meta.db_table, KEYS, VALUES, [usage.row()])


def count_with_limit(
    counter: rate_limits.RedisCounter | rate_limits.DatabaseCounter,
    *,
    bucket: str,
    window: rate_limits.Window,
    usage: Count | None,
    token: str | None = None,
) -> int:
    """Count a request against its rate-limit bucket and into usage in one round trip (one
    script in Redis, one statement on PostgreSQL, one transaction on SQLite); return the
    bucket's new count.

    ``token`` is the key cache's token the request's key was answered under: the script counts
    only if it is current, and raises ``key_cache.Stale`` otherwise (and when Redis cannot be
    reached: the answer cannot be confirmed).
    """
    if isinstance(counter, rate_limits.RedisCounter):
        if rate_limits.redis_usable(counter.url):
            try:
                return _count_in_redis(counter, bucket, window, usage, token)
            except rate_limits.REDIS_ERRORS as exc:
                rate_limits.redis_failed(counter.url, exc)
        if token is not None:
            raise key_cache.Stale(None)
        counter = counter.fallback  # the database, which every instance shares too
    if usage is None:
        return counter.incr(bucket, window)
    also = (adding_sql(RequestRollup._meta.db_table, KEYS, VALUES), list(usage.row()))
    return counter.incr(bucket, window, also=also)


def _count_in_redis(
    counter: rate_limits.RedisCounter,
    bucket: str,
    window: rate_limits.Window,
    usage: Count | None,
    token: str | None,
) -> int:
    source, keys = _LIMIT, [counter.key(bucket, window)]
    args: list[str | int] = [window.reset + 60]
    if usage is not None:
        source, keys = _COUNT_AND_LIMIT, [*usage.script_keys(), *keys]
        args = [*usage.script_args(), *args]
    if token is not None:
        source = key_cache.checked(source)
        keys = [*keys, key_cache.token_key(counter.namespace)]
        args = [*args, *key_cache.token_arguments(token)]
    script = rate_limits.registered_script(redis_client(counter.url), source)
    return int(key_cache.reply_of(script(keys=keys, args=args)))


def flush(org_id: str | None = None) -> int:
    """Move counts waiting in Redis into the rollups (one organisation's, or all).

    Returns how many batches it applied. While Redis cannot be reached there is nothing to move:
    counting goes to the database meanwhile, and what Redis holds waits for the next flush.
    """
    url = settings.REDIS_URL
    if not url or not rate_limits.redis_usable(url):
        return 0
    try:
        return _flush(redis_client(url), org_id)
    except rate_limits.REDIS_ERRORS as exc:
        rate_limits.redis_failed(url, exc)
        return 0


def _flush(client, org_id: str | None) -> int:
    org_ids = [org_id] if org_id else [_text(org) for org in client.smembers(f"{_ns()}:orgs")]
    for org in org_ids:
        _claim(client, org)
    staging = sorted(_text(name) for name in client.smembers(f"{_ns()}:staging"))
    if org_id:
        staging = [name for name in staging if name.startswith(f"{_ns()}:staging:{org_id}:")]
    for name in staging:
        _apply(client, name)
    if org_id is None:
        forget = rate_limits.registered_script(client, _FORGET_ORG)
        for org in org_ids:
            forget(keys=[_hours_key(org), f"{_ns()}:orgs"], args=[org])
        UsageFlush.objects.filter(flushed_at__lt=clock.now() - timedelta(days=1)).delete()
    return len(staging)


def _claim(client, org_id: str) -> None:
    for hour in sorted(_text(hour) for hour in client.smembers(_hours_key(org_id))):
        staging = f"{_ns()}:staging:{org_id}:{hour}:{uuid.uuid4().hex}"
        with client.pipeline(transaction=True) as pipe:
            pipe.rename(_hash_key(org_id, int(hour)), staging)
            pipe.sadd(f"{_ns()}:staging", staging)
            pipe.srem(_hours_key(org_id), hour)
            # RENAME fails when no request came since the last claim; the rest still applies.
            pipe.execute(raise_on_error=False)


def _apply(client, staging: str) -> None:
    _, _, org_id, hour, _ = staging.rsplit(":", 4)
    rows = _rows(org_id, int(hour), client.hgetall(staging))
    if Organisation.objects.filter(pk=org_id).exists():
        try:
            with transaction.atomic():
                UsageFlush.objects.create(token=staging)
                add_to_rows(RequestRollup._meta.db_table, KEYS, VALUES, rows)
        except IntegrityError:
            pass  # applied by an earlier flush that died before deleting the hash
    with client.pipeline(transaction=True) as pipe:
        pipe.delete(staging)
        pipe.srem(f"{_ns()}:staging", staging)
        pipe.execute()


def _rows(org_id: str, hour: int, fields: dict) -> list[tuple]:
    sums: dict[str, dict[str, int]] = {}
    for field, value in fields.items():
        label, _, figure = _text(field).rpartition("|")
        sums.setdefault(label, dict.fromkeys(VALUES, 0))[FIGURES[figure]] = int(value)
    return [(org_id, hour, label, *(v[name] for name in VALUES)) for label, v in sums.items()]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
