from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from memory_service.accounts.key_cache import KEYS
from memory_service.accounts.scopes import default_scopes
from memory_service.accounts.validators import validate_name, validate_scopes
from memory_service.ids import new_key_id, new_org_id
from shared.key_cache import ChangeTellingQuerySet


class TellsKeyChanges(ChangeTellingQuerySet):
    service_keys = KEYS


class Organisation(models.Model):
    """A tenant: every key, member and memory belongs to exactly one."""

    id = models.CharField(primary_key=True, max_length=32, default=new_org_id, editable=False)
    name = models.CharField(max_length=100, unique=True, validators=[validate_name])
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = TellsKeyChanges.as_manager()

    # DRF sees the organisation as ``request.user`` on key-authenticated requests.
    is_authenticated = True

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A human (a Django user, who signs in through the admin) in their one organisation."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memory_membership"
    )
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["organisation", "user"]

    def __str__(self) -> str:
        return f"{self.user} in {self.organisation}"


class ApiKeyQuerySet(TellsKeyChanges):
    def for_org(self, org: Organisation) -> ApiKeyQuerySet:
        return self.filter(organisation=org)


class ApiKey(models.Model):
    """An API key: only the display prefix and a keyed hash of the secret are stored."""

    id = models.CharField(primary_key=True, max_length=32, default=new_key_id, editable=False)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="keys")
    name = models.CharField(max_length=100, validators=[validate_name])
    prefix = models.CharField(max_length=7, editable=False)
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    scopes = models.JSONField(default=default_scopes, validators=[validate_scopes])
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)
    # Set only from the admin: the contract's key record has no expiry.
    expires_at = models.DateTimeField(null=True, blank=True)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
