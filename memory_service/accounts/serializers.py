from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rest_framework import serializers
from rest_framework.settings import api_settings

from memory_service import clock
from memory_service.accounts.scopes import ALL_SCOPES
from memory_service.accounts.validators import validate_name


class TimestampField(serializers.Field):
    """An ISO 8601 UTC timestamp with milliseconds and a ``Z``; null stays null."""

    def to_representation(self, value: datetime) -> str | None:
        return clock.iso(value)


class KeyRecordSerializer(serializers.Serializer):
    """The key record; the secret is never part of it."""

    id = serializers.CharField()
    name = serializers.CharField()
    prefix = serializers.CharField()
    scopes = serializers.ListField(child=serializers.CharField())
    createdAt = TimestampField(source="created_at")
    lastUsedAt = TimestampField(source="last_used_at")
    revokedAt = TimestampField(source="revoked_at")


class StrictBody(serializers.Serializer):
    """A JSON object body in which an unknown field is an issue at its own path."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        unknown = {}
        if isinstance(data, Mapping):
            names = [name for name in data if name not in self.fields]
            unknown = {str(name)[:100]: ["Unknown field."] for name in names[:20]}
        try:
            values = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not unknown:
                raise
            detail = exc.detail
            if not isinstance(detail, dict):
                detail = {api_settings.NON_FIELD_ERRORS_KEY: detail}
            raise serializers.ValidationError({**detail, **unknown}) from exc
        if unknown:
            raise serializers.ValidationError(unknown)
        return values


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans instead of converting them."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


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
