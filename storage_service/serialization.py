"""Serializer pieces every endpoint shares: strict JSON bodies and strict numbers.

The same idiom as the memory service's ``serialization`` module: a body refuses fields it does
not declare, and a typed field (``PositiveIntegerField``) refuses a value of another type
instead of converting it (``"5"`` is not a size). Where the contract gives a failure its own
code (INVALID_KEY_NAME, INVALID_FOLDER_NAME, ...), the field is a ``JSONField`` and its
``validate_<name>`` raises that error; everything else fails as INVALID_PARAMETERS.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from storage_service import errors

MAX_UNKNOWN_SHOWN = 20
WHOLE_NUMBER = "Must be a whole number of at least 1."


class StrictBody(serializers.Serializer):
    """A JSON object body in which an unknown field is refused (INVALID_PARAMETERS, by name)."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, dict):
            unknown = sorted(str(name)[:100] for name in set(data) - set(self.fields))
            if unknown:
                shown = unknown[:MAX_UNKNOWN_SHOWN]
                raise errors.InvalidParameters(**dict.fromkeys(shown, "Unknown field."))
        return super().to_internal_value(data)


class PatchBody(StrictBody):
    """A StrictBody for PATCH: every field optional, and at least one of them sent."""

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            names = ", ".join(self.fields)
            raise serializers.ValidationError(f"Send at least one of the fields {names}.")
        return attrs


class PositiveIntegerField(serializers.IntegerField):
    """A whole number of at least 1 that refuses strings, booleans and fractions."""

    default_error_messages = {"invalid": WHOLE_NUMBER}

    def to_internal_value(self, data: Any) -> int:
        # Checked here rather than by IntegerField, which goes through str() and so would
        # convert "5" and choke on a number of thousands of digits.
        if isinstance(data, bool) or not isinstance(data, int) or data < 1:
            self.fail("invalid")
        return data


def positive_int(text: str) -> int | None:
    """Read a whole number of at least 1 written in ASCII digits (a query or header value)."""
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value >= 1 else None
