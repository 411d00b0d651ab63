"""Serializer pieces every endpoint shares: timestamps, strict JSON bodies, strict strings."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from rest_framework import serializers
from rest_framework.settings import api_settings

from memory_service import clock
from shared.strict_fields import StrictCharField as StrictCharField  # one field, both services


class TimestampField(serializers.Field):
    """An ISO 8601 UTC timestamp with milliseconds and a ``Z``; null stays null."""

    def to_representation(self, value: datetime) -> str | None:
        return clock.iso(value)


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


class StrictIntegerField(serializers.IntegerField):
    """An integer field that refuses strings, booleans and fractions instead of converting them."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean only: "true", 1 and "yes" are refused instead of converted."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data
