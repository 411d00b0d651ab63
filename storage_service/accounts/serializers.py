from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers

from storage_service import errors
from storage_service.accounts import permissions
from storage_service.accounts.models import ApiKey
from storage_service.clock import iso
from storage_service.ids import is_id
from storage_service.names import forbidden_character
from storage_service.serialization import StrictBody

MAX_NAME_LENGTH = 100
# INVALID_KEY_NAME shows the rejected name whole up to this many characters.
MAX_NAME_ECHO = 1000
MAX_BULK_IDS = 100


class ApiKeySerializer(serializers.ModelSerializer):
    """The key record; ``fullKey`` only when the secret is passed in the context, at creation."""

    createdAt = serializers.SerializerMethodField()
    expiresAt = serializers.SerializerMethodField()
    lastUsedAt = serializers.SerializerMethodField()
    isActive = serializers.SerializerMethodField()

    class Meta:
        model = ApiKey
        fields = ["id", "name", "prefix", "permissions", "createdAt", "expiresAt", "lastUsedAt"]
        fields += ["isActive"]

    def get_createdAt(self, key: ApiKey) -> str:
        return iso(key.created_at)

    def get_expiresAt(self, key: ApiKey) -> str | None:
        return iso(key.expires_at)

    def get_lastUsedAt(self, key: ApiKey) -> str | None:
        return iso(key.last_used_at)

    def get_isActive(self, key: ApiKey) -> bool:
        return key.is_active_at(self.context["now"])

    def to_representation(self, key: ApiKey) -> dict[str, Any]:
        data = super().to_representation(key)
        if "secret" in self.context:
            data["fullKey"] = self.context["secret"]
        return data


class KeyCreateSerializer(StrictBody):
    name = serializers.JSONField(required=False, allow_null=True)
    permissions = serializers.JSONField(required=False, allow_null=True)
    expiresAt = serializers.JSONField(required=False, allow_null=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "name" not in attrs:
            reason = "The name is required."
            raise errors.InvalidKeyName(reason, name=None, reason=reason)
        return attrs

    def validate_name(self, name: Any) -> str:
        reason = None
        if not isinstance(name, str):
            reason = "The name must be a string."
        elif not name.strip():
            reason = "The name must not be empty or only spaces."
        elif len(name) > MAX_NAME_LENGTH:
            reason = f"The name must be at most {MAX_NAME_LENGTH} characters."
        else:
            reason = forbidden_character(name)
        if reason:
            raise errors.InvalidKeyName(reason, name=_echo(name), reason=reason)
        return name

    def validate_permissions(self, value: Any) -> list[str]:
        valid = permissions.ALL
        if not isinstance(value, list) or not value:
            raise errors.InvalidPermissions(
                "permissions must be a non-empty array of permission strings.",
                invalidPermissions=[value] if isinstance(value, str) else [],
                validPermissions=valid,
            )
        invalid = [
            item if isinstance(item, str) else str(item) for item in value if item not in valid
        ]
        if invalid:
            raise errors.InvalidPermissions(
                "Unknown permissions: " + ", ".join(invalid[:10]) + ".",
                invalidPermissions=[item[:100] for item in invalid[:50]],
                validPermissions=valid,
            )
        return list(dict.fromkeys(value))

    def validate_expiresAt(self, value: Any) -> datetime | None:
        if value is None:
            return None
        now = self.context["now"]
        parsed = None
        if isinstance(value, str):
            try:
                parsed = parse_datetime(value)
            except ValueError:
                parsed = None
        if parsed is not None and parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        if parsed is None or parsed <= now:
            reason = "must be in the future" if parsed else "must be an ISO 8601 date-time"
            raise errors.InvalidExpirationDate(
                f"expiresAt {reason}.",
                expiresAt=value[:100] if isinstance(value, str) else value,
                currentTime=iso(now),
            )
        return parsed


class KeyBulkRevokeSerializer(StrictBody):
    keyIds = serializers.JSONField(allow_null=True)

    def validate_keyIds(self, value: Any) -> list[str]:
        if (
            not isinstance(value, list)
            or not value
            or len(value) > MAX_BULK_IDS
            or not all(is_id(item) for item in value)
        ):
            raise errors.InvalidParameters(
                keyIds=f"Must be an array of 1 to {MAX_BULK_IDS} key ids (strings)."
            )
        return value


def _echo(value: Any) -> Any:
    """The rejected value as sent, cut past ``MAX_NAME_ECHO`` characters (its JSON, if not text)."""
    if isinstance(value, str):
        return value[:MAX_NAME_ECHO]
    text = json.dumps(value, ensure_ascii=False)
    return value if len(text) <= MAX_NAME_ECHO else text[:MAX_NAME_ECHO]
