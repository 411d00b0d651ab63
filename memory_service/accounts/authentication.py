"""Who is calling: a Bearer API key, or (on the key endpoints) an admin session of a member.

Either way ``request.auth`` is the credential, an ``ApiKey`` or a ``Membership``, and both carry
the ``organisation`` the request acts for.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, cast

from django.conf import settings
from rest_framework.authentication import BaseAuthentication, SessionAuthentication
from rest_framework.request import Request

from memory_service import clock, errors
from memory_service.accounts.key_cache import KEYS
from memory_service.accounts.models import ApiKey, Membership, Organisation
from memory_service.api import AUTHENTICATE_HEADER
from shared import keys
from shared.key_cache import Stale

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

SECRET_PREFIX = "mk_"  # noqa: S105 -- the public prefix of every secret, not a secret


def caller_organisation(request: Request) -> Organisation:
    """Return the organisation an authenticated request acts for."""
    credential = cast("ApiKey | Membership", request.auth)  # what either authentication sets
    return credential.organisation


def caller_key(request: Request) -> ApiKey | None:
    """Return the API key making the request, or None for a session."""
    return request.auth if isinstance(request.auth, ApiKey) else None


def _bearer_secret(request: Request) -> str | None:
    """Return the Bearer token, "" when it is empty, or None when there is no Bearer header."""
    scheme, _, secret = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    return secret.strip()


def key_for_secret(secret: str, *, now: datetime) -> ApiKey:
    """Return the usable key whose secret this is, or raise Unauthorized.

    With Redis, the answer may come from this process's cache (``shared.key_cache``), once one
    round trip confirmed that no key or organisation changed since it was read.
    """
    if not keys.is_well_formed(secret, SECRET_PREFIX):
        # The checksum fails: refused without a database query.
        raise errors.Unauthorized("The API key is malformed.")
    digest = keys.secret_hash(secret, settings.API_KEY_PEPPER)
    found = KEYS.lookup(digest, load=_key_from_database)
    if found.entry is not None:
        try:
            KEYS.confirm(found.entry.token)
        except Stale as stale:
            found = KEYS.lookup(digest, load=_key_from_database, cached=False, token=stale.token)
    key = found.key
    if key is None:
        raise errors.Unauthorized("Unknown API key.")
    if key.revoked_at is not None:
        raise errors.Unauthorized("This API key has been revoked.")
    if key.expires_at is not None and key.expires_at <= now:
        raise errors.Unauthorized("This API key has expired.")
    resolution = timedelta(seconds=settings.KEY_LAST_USED_RESOLUTION)
    KEYS.touch(digest, found, now=now, resolution=resolution)
    return key


def _key_from_database(digest: str) -> ApiKey | None:
    # secret_hash is unique and is the keyed hash: equality on it is the comparison.
    return ApiKey.objects.select_related("organisation").filter(secret_hash=digest).first()


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
