from __future__ import annotations

from rest_framework import serializers

from memory_service.accounts.scopes import ALL_SCOPES
from memory_service.accounts.validators import validate_name
from memory_service.serialization import StrictBody, StrictCharField, TimestampField


class KeyRecordSerializer(serializers.Serializer):
    """The key record; the secret is never part of it."""

    id = serializers.CharField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    createdAt = TimestampField(source="created_at")
    lastUsedAt = TimestampField(source="last_used_at")
    revokedAt = TimestampField(source="revoked_at")


class KeyCreateSerializer(StrictBody):
    name = StrictCharField(max_length=100, trim_whitespace=False, validators=[validate_name])
    scopes = serializers.ListField(
        child=serializers.ChoiceField(
            choices=ALL_SCOPES,
            error_messages={
                "invalid_choice": f"Unknown scope; use one of {', '.join(ALL_SCOPES)}."
            },
        ),
        allow_empty=False,
        required=False,
    )

    def validate_scopes(self, value: list[str]) -> list[str]:
        return list(dict.fromkeys(value))
