"""Resolved API keys kept in each process, trusted only while a token in Redis stays the same.

Looking a key up on every request is a database round trip and an ORM query: most of what an
authenticated request costs. So each process keeps what a key hash resolved to, and Redis holds
one random token per service:

- every change that can alter what a key resolves to (a revocation, an edit in the admin, a plan
  change, a deletion) sets a fresh token once its transaction has committed (``changed``);
- an answer is cached with the token read *before* the database was, so an answer is never newer
  than its token: a change that commits after that read replaces the token after it;
- a request uses a cached answer only if its token is still the current one, checked in a round
  trip the request makes anyway (``checked`` prefixes a service's own Lua script with the check).

So a revoked key is refused at once by every instance that can reach Redis. Entries also expire
after ``ttl`` seconds, which bounds how long an instance trusts an answer when the instance that
made the change could not reach Redis to say so. Without Redis nothing is cached.
"""

from __future__ import annotations

import copy
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_save

from shared import rate_limits

logger = logging.getLogger(__name__)

# Prefixes a script whose last key is the token's and whose last two arguments are the token the
# caller cached with and a fresh one to set when there is none (Redis restarted or was flushed).
# A mismatch returns ``{token}`` and runs nothing else; any other reply is the script's own.
_CHECK = """
local token = redis.call('GET', KEYS[#KEYS])
if not token then
  token = ARGV[#ARGV]
  redis.call('SET', KEYS[#KEYS], token)
end
if token ~= ARGV[#ARGV - 1] then return {token} end
"""


def checked(script: str) -> str:
    """``script`` run only when the caller's token is current (see ``_CHECK``)."""
    return _CHECK + script


def token_key(namespace: str) -> str:
    return f"{namespace}:keys:token"


def fresh_token() -> str:
    return secrets.token_hex(8)


class Stale(Exception):
    """The token a cached answer relied on is no longer current; ``token`` is the current one
    (None when Redis could not be asked)."""

    def __init__(self, token: str | None) -> None:
        super().__init__(token)
        self.token = token


def token_arguments(token: str | None) -> list[str]:
    """The last two arguments of a ``checked`` script: the caller's token and a fresh one."""
    return [token or "", fresh_token()]


def reply_of(reply: Any) -> Any:
    """Return a ``checked`` script's own reply, or raise ``Stale`` with the current token."""
    if isinstance(reply, list):
        token = reply[0]
        raise Stale(token.decode() if isinstance(token, bytes) else token)
    return reply


_CURRENT = checked("return 0")


def current_token(url: str, namespace: str) -> str | None:
    """The current token (set if there is none), to read before the database; None without
    Redis."""
    if not rate_limits.redis_usable(url):
        return None
    script = rate_limits.registered_script(rate_limits.redis_client(url), _CURRENT)
    try:
        reply_of(script(keys=[token_key(namespace)], args=token_arguments(None)))
    except Stale as stale:
        return stale.token
    except rate_limits.REDIS_ERRORS as exc:
        rate_limits.redis_failed(url, exc)
        return None
    raise AssertionError("an empty token is never current")  # pragma: no cover


def changed(url: str | None, namespace: str) -> None:
    """Say that what keys resolve to has changed: every cached answer is stale from now on."""
    if not url:
        return
    try:
        rate_limits.redis_client(url).set(token_key(namespace), fresh_token())
    except rate_limits.REDIS_ERRORS as exc:
        # Other instances drop their answers within the cache's ttl; nothing else can be done.
        logger.warning("Could not tell other instances that API keys changed (%s)", exc)
        rate_limits.redis_failed(url, exc)


@dataclass(frozen=True)
class Entry:
    value: Any
    token: str
    stored: float


class KeyCache:
    """What key hashes resolved to in this process, each with the token it was read under.

    At most ``size`` entries (least recently stored go first), each trusted for ``ttl`` seconds.
    """

    def __init__(self, *, size: int = 10_000, ttl: float = 60.0) -> None:
        self.size = size
        self.ttl = ttl
        self._entries: OrderedDict[Hashable, Entry] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, digest: Hashable) -> Entry | None:
        entry = self._entries.get(digest)
        if entry is None or time.monotonic() - entry.stored > self.ttl:
            return None
        return entry

    def put(self, digest: Hashable, value: Any, token: str, *, stored: float | None = None) -> None:
        """Keep ``value`` under ``token``; ``stored`` keeps an entry's age when it is updated."""
        entry = Entry(value, token, time.monotonic() if stored is None else stored)
        with self._lock:
            self._entries[digest] = entry
            self._entries.move_to_end(digest)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def discard(self, digest: Hashable) -> None:
        with self._lock:
            self._entries.pop(digest, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


@dataclass(frozen=True)
class Snapshot:
    """A key's column values and its organisation's, to build fresh instances for each request
    (a request may change the instances it is given; the cache's copy stays as read)."""

    key_model: Any
    key_fields: tuple[str, ...]
    key_values: tuple
    relation: Any  # the key's foreign key to its organisation
    org_fields: tuple[str, ...]
    org_values: tuple


def snapshot(key: Any, *, relation: str, leave_out: Collection[str] = ()) -> Snapshot:
    """Snapshot ``key`` and its organisation (``relation``), without the organisation's fields in
    ``leave_out``: they stay deferred, read from the database if a request asks for them."""
    org = getattr(key, relation)
    key_fields = tuple(field.attname for field in key._meta.concrete_fields)
    org_fields = tuple(
        field.attname for field in org._meta.concrete_fields if field.attname not in leave_out
    )
    return Snapshot(
        type(key),
        key_fields,
        tuple(getattr(key, name) for name in key_fields),
        key._meta.get_field(relation),
        org_fields,
        tuple(getattr(org, name) for name in org_fields),
    )


def rebuild(snap: Snapshot) -> Any:
    """A fresh key instance, with its organisation, from ``snap``."""
    key_values = [copy.deepcopy(v) if isinstance(v, list | dict) else v for v in snap.key_values]
    key = snap.key_model.from_db("default", snap.key_fields, key_values)
    org_model = snap.relation.related_model
    # As select_related leaves it: the organisation cached on the key.
    snap.relation.set_cached_value(
        key, org_model.from_db("default", snap.org_fields, snap.org_values)
    )
    return key


@dataclass(frozen=True)
class Found:
    """A key looked up by its hash: ``key`` (None: no such key), the token the answer stands on
    (None: read from the database with nothing to check), and the cache entry it came from."""

    key: Any
    token: str | None = None
    entry: Entry | None = None


class ChangeTellingQuerySet(QuerySet):
    """Updates through this queryset tell every instance when they can change a key's answer."""

    service_keys: ServiceKeys

    def update(self, **kwargs: Any) -> int:
        updated = super().update(**kwargs)
        if updated and self.service_keys.is_a_change(kwargs):
            self.service_keys.changed_on_commit(self.db)
        return updated


class ServiceKeys:
    """One service's key cache: which models it holds, where its token lives, and when to tell.

    ``models`` are the key model and its organisation's, as ``app_label.Model``; the key reaches
    the organisation through ``relation``. ``org_counters`` are organisation fields that requests
    move all the time and that never authorise one: left out of the cache (read when used), like
    the key's ``last_used_at``, and writing them tells nobody.
    """

    def __init__(
        self,
        *,
        models: tuple[str, str],
        redis_url: Callable[[], str | None],
        namespace: Callable[[], str],
        org_counters: tuple[str, ...] = (),
        relation: str = "organisation",
        ttl: float = 60.0,
    ) -> None:
        self.models = models
        self.redis_url = redis_url
        self.namespace = namespace
        self.org_counters = org_counters
        self.relation = relation
        self.not_a_change = frozenset({"last_used_at", *org_counters})
        self.cache = KeyCache(ttl=ttl)

    def enabled(self) -> bool:
        return bool(self.redis_url())

    def lookup(
        self,
        digest: str,
        *,
        load: Callable[[str], Any],
        cached: bool = True,
        token: str | None = None,
    ) -> Found:
        """The key whose secret hashes to ``digest``: this process's cached answer (whose token
        the caller must confirm before using it) or ``load(digest)`` from the database.

        ``cached=False`` reads the database and caches the answer under ``token``.
        """
        url = self.redis_url()
        if not url:  # no Redis: the cache is off (``enabled``)
            return Found(load(digest))
        if cached:
            entry = self.cache.get(digest)
            if entry is not None:
                return Found(rebuild(entry.value), entry.token, entry)
            # Read before the database, so that the answer is never newer than its token.
            token = current_token(url, self.namespace())
        else:
            self.cache.discard(digest)
        key = load(digest)
        if key is not None and token is not None and key.revoked_at is None:
            self.cache.put(digest, self._snapshot(key), token)
        return Found(key, token)

    def touch(self, digest: str, found: Found, *, now: datetime, resolution: timedelta) -> None:
        """Record that ``found.key`` was used, at most once per ``resolution`` in each process,
        so that reads rarely become writes.

        A process writes when the last use it knows of (its own write, or what it read) is a
        ``resolution`` old; the stored value is never older than that, so it lags real use by
        at most ``resolution`` whichever instances serve the key.
        """
        key = found.key
        if key.last_used_at is not None and now - key.last_used_at < resolution:
            return
        type(key)._default_manager.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now
        if found.token is not None:
            stored = None if found.entry is None else found.entry.stored
            self.cache.put(digest, self._snapshot(key), found.token, stored=stored)

    def confirm(self, token: str) -> None:
        """Raise ``Stale`` unless ``token`` is current (one round trip, for a service that makes
        none of its own on every request)."""
        url = self.redis_url()
        if not url or not rate_limits.redis_usable(url):
            raise Stale(None)
        script = rate_limits.registered_script(rate_limits.redis_client(url), _CONFIRM)
        try:
            reply_of(script(keys=[token_key(self.namespace())], args=token_arguments(token)))
        except rate_limits.REDIS_ERRORS as exc:
            rate_limits.redis_failed(url, exc)
            raise Stale(None) from exc

    def is_a_change(self, fields: Iterable[str] | None) -> bool:
        """Whether writing ``fields`` (None: all of them) can change what a key resolves to."""
        return fields is None or not set(fields) <= self.not_a_change

    def changed_on_commit(self, using: str = "default") -> None:
        """Tell every instance, once the current transaction commits, that keys changed.

        This process forgets its answers at once as well: its next lookups read the database
        through the connection that made the change (which sees it before the commit, as the
        rest of its transaction, or a test's, expects).
        """
        if self.enabled():
            self.cache.clear()
            url, namespace = self.redis_url(), self.namespace()
            transaction.on_commit(lambda: changed(url, namespace), using=using)

    def connect(self) -> None:
        """Tell of writes through the models (the admin's among them) by their signals; queryset
        updates tell through ``ChangeTellingQuerySet``."""
        for model in self.models:
            post_save.connect(self._saved, sender=model, dispatch_uid=f"key-cache-save-{model}")
            post_delete.connect(
                self._deleted, sender=model, dispatch_uid=f"key-cache-delete-{model}"
            )

    def _saved(self, sender: type, created: bool, update_fields: Any, **kwargs: Any) -> None:
        # A new key or organisation is in no cache yet.
        if not created and self.is_a_change(update_fields):
            self.changed_on_commit(kwargs.get("using", "default"))

    def _deleted(self, sender: type, **kwargs: Any) -> None:
        self.changed_on_commit(kwargs.get("using", "default"))

    def _snapshot(self, key: Any) -> Snapshot:
        return snapshot(key, relation=self.relation, leave_out=self.org_counters)


_CONFIRM = checked("return 1")
