"""Bearer API key authentication, resolved once per request and shared with the rate limiter."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from shared import keys
from storage_service import clock, errors
from storage_service.accounts.models import ApiKey, Organisation

SECRET_PREFIX = "ak_"  # noqa: S105 - the public prefix every key starts with


@dataclass(frozen=True)
class KeyAuth:
    """What the Authorization header resolved to: an organisation and key, or the error to raise."""

    org: Organisation | None = None
    key: ApiKey | None = None
    error: errors.InvalidApiKey | None = None


def _bearer_secret(request: HttpRequest) -> str | None:
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return secret.strip() or None


def _touch(key: ApiKey, now) -> None:
    """Record use, at most once per resolution period, so reads rarely become writes."""
    resolution = timedelta(seconds=settings.KEY_LAST_USED_RESOLUTION)
    if key.last_used_at is None or now - key.last_used_at >= resolution:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now


def resolve_key(request: HttpRequest) -> KeyAuth:
    """Resolve the request's Bearer key once; later calls return the cached answer."""
    cached = getattr(request, "_storage_key_auth", None)
    if cached is None:
        cached = _resolve(request)
        request._storage_key_auth = cached
    return cached


def _resolve(request: HttpRequest) -> KeyAuth:
    secret = _bearer_secret(request)
    if secret is None or not keys.is_well_formed(secret, SECRET_PREFIX):
        # A missing or malformed key is refused without a database query.
        return KeyAuth(error=errors.InvalidApiKey(keyId=None))
    digest = keys.secret_hash(secret, settings.API_KEY_PEPPER)
    key = ApiKey.objects.select_related("organisation").filter(secret_hash=digest).first()
    if key is None or not keys.verify(secret, key.secret_hash, settings.API_KEY_PEPPER):
        return KeyAuth(error=errors.InvalidApiKey(keyId=None))
    now = clock.now()
    if key.revoked_at is not None:
        return KeyAuth(error=errors.InvalidApiKey("This API key has been revoked.", keyId=key.id))
    if key.expires_at is not None and key.expires_at <= now:
        return KeyAuth(error=errors.InvalidApiKey("This API key has expired.", keyId=key.id))
    _touch(key, now)
    return KeyAuth(org=key.organisation, key=key)


class ApiKeyAuthentication(BaseAuthentication):
    """DRF authentication: ``request.user`` is the organisation, ``request.auth`` the key."""

    def authenticate(self, request: Request) -> tuple[Organisation, ApiKey]:
        auth = resolve_key(request._request)
        if auth.error is not None:
            raise auth.error
        return auth.org, auth.key

    def authenticate_header(self, request: Request) -> str:
        return 'Bearer realm="storage"'
