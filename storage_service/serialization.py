"""Serializer pieces every endpoint shares: strict JSON bodies, strings, numbers, query values.

The same idiom as the memory service's ``serialization`` module: a body refuses fields it does
not declare, and a typed field (``StrictCharField``, ``PositiveIntegerField``) refuses a value
of another type instead of converting it (``"5"`` is not a size). Where the contract gives a
failure its own code (INVALID_KEY_NAME, INVALID_FOLDER_NAME, ...) or a refusal must name the
item at fault, the field is a ``JSONField`` and its ``validate_<name>`` raises that error;
everything else fails as INVALID_PARAMETERS through these typed fields.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from rest_framework import serializers
from rest_framework.validators import ProhibitSurrogateCharactersValidator

from shared.strict_fields import StrictCharField as StrictCharField  # one field, both services
from storage_service import errors

MAX_UNKNOWN_SHOWN = 20
WHOLE_NUMBER = "Must be a whole number of at least 1."
INTEGER = re.compile(r"-?[0-9]+")
FLAGS = {"true": True, "1": True, "false": False, "0": False}


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


class NameField(StrictCharField):
    """A name as sent (not trimmed). ``names.forbidden_character`` judges its characters, NUL
    and lone surrogates included, so the refusal names the code point, as for every name."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(trim_whitespace=False, **kwargs)
        ours = (ProhibitNullCharactersValidator, ProhibitSurrogateCharactersValidator)
        self.validators = [check for check in self.validators if not isinstance(check, ours)]


class StrictBooleanField(serializers.BooleanField):
    """true or false, and nothing DRF would read as one ("true", 1, "on")."""

    default_error_messages = {"invalid": "Must be true or false.", "null": "Must be true or false."}

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


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


# Query strings: every value arrives as text, and each bad one is reported under its own name.


class QueryPositiveInteger(serializers.Field):
    """A whole number of at least 1, and at most ``maximum`` when given."""

    def __init__(self, *, maximum: int | None = None, **kwargs: Any) -> None:
        self.maximum = maximum
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        text = data if isinstance(data, str) else ""
        value = positive_int(text)
        if value is None and not INTEGER.fullmatch(text):
            raise serializers.ValidationError("Must be a whole number.")
        if value is None or (self.maximum is not None and value > self.maximum):
            limits = f"between 1 and {self.maximum}" if self.maximum else "1 or greater"
            raise serializers.ValidationError(f"Must be {limits}.")
        return value

    def to_representation(self, value: int) -> int:
        return value


class QueryChoice(serializers.Field):
    """One of ``choices``, spelt exactly."""

    def __init__(self, choices: Iterable[str], *, message: str = "", **kwargs: Any) -> None:
        self.choices = tuple(choices)
        self.message = message or f"Must be one of {', '.join(self.choices)}."
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if data not in self.choices:
            raise serializers.ValidationError(self.message)
        return data

    def to_representation(self, value: str) -> str:
        return value


class QueryFlag(serializers.Field):
    """A boolean written true, false, 1 or 0 (in any case, spaces around ignored)."""

    def to_internal_value(self, data: Any) -> bool:
        value = FLAGS.get(data.strip().lower()) if isinstance(data, str) else None
        if value is None:
            raise serializers.ValidationError("Must be true, false, 1 or 0.")
        return value

    def to_representation(self, value: bool) -> bool:
        return value


class QueryText(serializers.CharField):
    """Text as sent (not trimmed), empty allowed; a NUL is refused, as by every CharField."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        max_length = kwargs.get("max_length")
        if max_length:
            kwargs["error_messages"] = {"max_length": f"Must be at most {max_length} characters."}
        super().__init__(trim_whitespace=False, allow_blank=True, **kwargs)
