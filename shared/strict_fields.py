"""Serializer fields that refuse a value of another type instead of converting it, as JSON
clients expect: DRF's own read ``5`` as the string "5" and "true" as true."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans instead of converting them."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
