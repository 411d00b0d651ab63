"""Writes on organisations and API keys."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import transaction

from shared import keys
from storage_service import errors
from storage_service.accounts.authentication import SECRET_PREFIX
from storage_service.accounts.models import ApiKey, Organisation
from storage_service.accounts.permissions import covers
from storage_service.clock import iso


def organisation_get_or_create(*, name: str, plan: str | None = None) -> tuple[Organisation, bool]:
    """Return the organisation called ``name``, creating it (on ``plan``) when it is new."""
    org, created = Organisation.objects.get_or_create(
        name=name, defaults={"plan": plan or Organisation.Plan.FREE}
    )
    if not created and plan and org.plan != plan:
        org.plan = plan
        org.save(update_fields=["plan"])
    return org, created


def key_create(
    *,
    org: Organisation,
    name: str,
    permissions: list[str],
    expires_at: datetime | None,
    now: datetime,
    acting_key: ApiKey | None = None,
) -> tuple[ApiKey, str]:
    """Mint a key for ``org`` and return it with its secret, which is not kept anywhere.

    ``acting_key`` is the key making the request; it can only hand out permissions it holds.
    The organisation row is locked so that concurrent creations cannot pass ``maxKeys``.
    """
    if acting_key is not None and not covers(acting_key.permissions, permissions):
        raise errors.AccessDenied(
            "An API key cannot grant permissions it does not hold.",
            deniedPermissions=sorted(set(permissions) - set(acting_key.permissions)),
        )
    with transaction.atomic():
        Organisation.objects.select_for_update().filter(pk=org.pk).first()
        active = ApiKey.objects.for_org(org).active(now).count()
        if active >= settings.MAX_KEYS:
            raise errors.KeyLimitExceeded(currentKeys=active, maxKeys=settings.MAX_KEYS)
        secret = keys.generate(SECRET_PREFIX)
        key = ApiKey.objects.create(
            organisation=org,
            name=name,
            permissions=permissions,
            expires_at=expires_at,
            prefix=keys.display_prefix(secret),
            secret_hash=keys.secret_hash(secret, settings.API_KEY_PEPPER),
            created_at=now,
        )
    return key, secret


def key_revoke(*, org: Organisation, key_id: str, acting_key: ApiKey, now: datetime) -> ApiKey:
    """Revoke one of ``org``'s keys at once; it stops authenticating with the next request."""
    key = ApiKey.objects.for_org(org).filter(pk=key_id).first()
    if key is None:
        raise errors.KeyNotFound(keyId=key_id)
    if key.pk == acting_key.pk:
        raise errors.CannotRevokeOwnKey(keyId=key_id)
    if not covers(acting_key.permissions, key.permissions):
        raise errors.AccessDenied(
            "An API key cannot revoke a key that holds permissions it lacks.", keyId=key_id
        )
    # A conditional update, so that of two concurrent revocations exactly one wins.
    if not ApiKey.objects.filter(pk=key.pk, revoked_at__isnull=True).update(revoked_at=now):
        key.refresh_from_db(fields=["revoked_at"])
        raise errors.KeyAlreadyRevoked(keyId=key_id, revokedAt=iso(key.revoked_at))
    key.revoked_at = now
    return key


@dataclass
class BulkRevocation:
    revoked: list[str] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)


def keys_revoke_bulk(
    *, org: Organisation, key_ids: list[str], acting_key: ApiKey, now: datetime
) -> BulkRevocation:
    """Revoke each key on its own; each failure is reported with its code and reason."""
    outcome = BulkRevocation()
    for key_id in dict.fromkeys(key_ids):
        try:
            key_revoke(org=org, key_id=key_id, acting_key=acting_key, now=now)
        except errors.ApiError as error:
            outcome.failed.append({"keyId": key_id, "code": error.code, "reason": error.message})
        else:
            outcome.revoked.append(key_id)
    return outcome
