"""Who is calling: a Bearer API key, or (on the key endpoints) an admin session of a member.

Either way ``request.auth`` is the credential, an ``ApiKey`` or a ``Membership``, and both carry
the ``organisation`` the request acts for.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.request import Request

from memory_service import clock, errors
from memory_service.accounts.models import ApiKey, Membership, Organisation
from memory_service.api import AUTHENTICATE_HEADER
from shared import keys

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

SECRET_PREFIX = "mk_"  # noqa: S105 -- the public prefix of every secret, not a secret


def caller_organisation(request: Request) -> Organisation:
    """Return the organisation an authenticated request acts for."""
    return request.auth.organisation


def caller_key(request: Request) -> ApiKey | None:
    """Return the API key making the request, or None for a session."""
    return request.auth if isinstance(request.auth, ApiKey) else None


def _bearer_secret(request: Request) -> str | None:
    """Return the Bearer token, "" when it is empty, or None when there is no Bearer header."""
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return secret.strip()


def _touch(key: ApiKey, now: datetime) -> None:
    """Record use at most once per resolution period, so that reads rarely become writes."""
    resolution = timedelta(seconds=settings.KEY_LAST_USED_RESOLUTION)
    if key.last_used_at is None or now - key.last_used_at >= resolution:
        ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
        key.last_used_at = now


def key_for_secret(secret: str, *, now: datetime) -> ApiKey:
    """Return the usable key whose secret this is, or raise Unauthorized."""
    if not keys.is_well_formed(secret, SECRET_PREFIX):
        # The checksum fails: refused without a database query.
        raise errors.Unauthorized("The API key is malformed.")
    digest = keys.secret_hash(secret, settings.API_KEY_PEPPER)
    key = ApiKey.objects.select_related("organisation").filter(secret_hash=digest).first()
    if key is None or not keys.verify(secret, key.secret_hash, settings.API_KEY_PEPPER):
        raise errors.Unauthorized("Unknown API key.")
    if key.revoked_at is not None:
        raise errors.Unauthorized("This API key has been revoked.")
    if key.expires_at is not None and key.expires_at <= now:
        raise errors.Unauthorized("This API key has expired.")
    _touch(key, now)
    return key


class ApiKeyAuthentication(BaseAuthentication):
    """Bearer ``mk_...`` keys: ``request.user`` is the organisation, ``request.auth`` the key."""

    def authenticate(self, request: Request) -> tuple[Organisation, ApiKey] | None:
        secret = _bearer_secret(request)
        if secret is None:
            return None
        key = key_for_secret(secret, now=clock.now())
        return key.organisation, key

    def authenticate_header(self, request: Request) -> str:
        return AUTHENTICATE_HEADER


class MemberSessionAuthentication(SessionAuthentication):
    """A Django login (the admin's) of a member of an organisation; unsafe methods need CSRF.

    ``request.user`` is the Django user and ``request.auth`` their ``Membership``.
    """

    def authenticate(self, request: Request) -> tuple[AbstractBaseUser, Membership] | None:
        user = getattr(request._request, "user", None)
        if not user or not user.is_active:
            return None
        if not settings.MEMORY_SESSION_KEYS:
            raise errors.BootstrapDisabled(
                "Session access to the key endpoints is turned off (MEMORY_SESSION_KEYS); "
                "use an API key holding keys:manage."
            )
        self.enforce_csrf(request)
        membership = Membership.objects.select_related("organisation").filter(user=user).first()
        if membership is None:
            raise errors.Forbidden("This user is not a member of any organisation.")
        return user, membership
