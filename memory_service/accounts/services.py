"""Writes on organisations and API keys."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings

from memory_service import errors
from memory_service.accounts.authentication import SECRET_PREFIX
from memory_service.accounts.models import ApiKey, Organisation
from memory_service.accounts.scopes import missing_scopes
from shared import keys


def organisation_get_or_create(*, name: str) -> tuple[Organisation, bool]:
    """Return the organisation called ``name`` and whether it was created just now."""
    return Organisation.objects.get_or_create(name=name)


def key_create(
    *,
    org: Organisation,
    name: str,
    scopes: list[str],
    now: datetime,
    acting_key: ApiKey | None = None,
    expires_at: datetime | None = None,
) -> tuple[ApiKey, str]:
    """Mint a key for ``org`` and return it with its secret, which is kept nowhere.

    ``acting_key`` is the key making the request, if any: it can only hand out scopes it holds.
    """
    if acting_key is not None and (missing := missing_scopes(acting_key.scopes, scopes)):
        raise errors.Forbidden(
            f"This API key cannot grant the {missing[0]} scope, which it does not hold.",
            required_scope=missing[0],
        )
    secret = keys.generate(SECRET_PREFIX)
    key = ApiKey.objects.create(
        organisation=org,
        name=name,
        scopes=scopes,
        prefix=keys.display_prefix(secret),
        secret_hash=keys.secret_hash(secret, settings.API_KEY_PEPPER),
        created_at=now,
        expires_at=expires_at,
    )
    return key, secret


def key_revoke(
    *, org: Organisation, key_id: str, now: datetime, acting_key: ApiKey | None = None
) -> ApiKey:
    """Revoke one of ``org``'s keys; revoking a revoked key changes nothing and answers the same.

    ``acting_key`` may revoke keys whose scopes it holds all of, itself included (which is how a
    rotation ends).
    """
    key = ApiKey.objects.for_org(org).filter(pk=key_id).first()
    if key is None:
        raise errors.NotFound(resource="key", id=key_id, message=f"No key {key_id}.")
    if acting_key is not None and (missing := missing_scopes(acting_key.scopes, key.scopes)):
        raise errors.Forbidden(
            f"This API key cannot revoke a key holding the {missing[0]} scope, which it lacks.",
            required_scope=missing[0],
        )
    # A conditional update: of two concurrent revocations the first timestamp stays.
    if ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=now):
        key.revoked_at = now
    else:
        key.refresh_from_db(fields=["revoked_at"])
    return key
