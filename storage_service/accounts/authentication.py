"""Bearer API key authentication, resolved once per request and shared with the rate limiter.

With Redis, what a key resolves to is cached in each process (``shared.key_cache``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.conf import settings
from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from shared import keys
from storage_service import clock, errors
from storage_service.accounts.key_cache import KEYS
from storage_service.accounts.models import ApiKey, Organisation

SECRET_PREFIX = "ak_"  # noqa: S105 - the public prefix every key starts with


@dataclass(frozen=True)
class KeyAuth:
    """What the Authorization header resolved to: an organisation and key, or the error to raise.

    ``token`` is the key cache's token the answer stands on (``shared.key_cache``): the rate
    limiter checks it in its Redis round trip before the answer is used. None: not a key, or
    read from the database with no cache to check.
    """

    org: Organisation | None = None
    key: ApiKey | None = None
    error: errors.InvalidApiKey | None = None
    token: str | None = None


def _bearer_secret(request: HttpRequest) -> str | None:
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return secret.strip() or None


def resolve_key(request: HttpRequest) -> KeyAuth:
    """Resolve the request's Bearer key once; later calls return the same answer.

    The answer is kept on the request (an attribute HttpRequest does not declare).
    """
    auth = getattr(request, "_storage_key_auth", None)
    if auth is None:
        auth = _resolve(request, cached=True)
        request._storage_key_auth = auth  # type: ignore[attr-defined]
    return auth


def forget_key(request: HttpRequest, token: str | None) -> None:
    """The request's answer stood on a token that is no longer current: read the key from the
    database again, cached under ``token`` (the current one; None: do not cache)."""
    auth = _resolve(request, cached=False, token=token)
    request._storage_key_auth = auth  # type: ignore[attr-defined]


def _resolve(request: HttpRequest, *, cached: bool, token: str | None = None) -> KeyAuth:
    secret = _bearer_secret(request)
    if secret is None or not keys.is_well_formed(secret, SECRET_PREFIX):
        # A missing or malformed key is refused without a database query.
        return KeyAuth(error=errors.InvalidApiKey(keyId=None))
    digest = keys.secret_hash(secret, settings.API_KEY_PEPPER)
    found = KEYS.lookup(digest, load=_key_from_database, cached=cached, token=token)
    key = found.key
    if key is None:
        return KeyAuth(error=errors.InvalidApiKey(keyId=None))
    now = clock.now()
    if key.revoked_at is not None:
        return KeyAuth(error=errors.InvalidApiKey("This API key has been revoked.", keyId=key.id))
    if key.expires_at is not None and key.expires_at <= now:
        return KeyAuth(error=errors.InvalidApiKey("This API key has expired.", keyId=key.id))
    resolution = timedelta(seconds=settings.KEY_LAST_USED_RESOLUTION)
    KEYS.touch(digest, found, now=now, resolution=resolution)
    return KeyAuth(org=key.organisation, key=key, token=found.token)


def _key_from_database(digest: str) -> ApiKey | None:
    # secret_hash is unique and is the keyed hash: equality on it is the comparison.
    return ApiKey.objects.select_related("organisation").filter(secret_hash=digest).first()


def caller_organisation(request: Request) -> Organisation:
    """Return the organisation whose key authenticated ``request``."""
    # ApiKeyAuthentication makes it request.user, which DRF's types take for a Django user.
    return cast(Organisation, request.user)


def caller_key(request: Request) -> ApiKey:
    """Return the API key that authenticated ``request``."""
    return cast(ApiKey, request.auth)


class ApiKeyAuthentication(BaseAuthentication):
    """DRF authentication: ``request.user`` is the organisation, ``request.auth`` the key."""

    def authenticate(self, request: Request) -> tuple[Organisation, ApiKey]:
        auth = resolve_key(request._request)
        if auth.error is not None:
            raise auth.error
        assert auth.org is not None and auth.key is not None  # no error: both were found
        return auth.org, auth.key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="storage"'
