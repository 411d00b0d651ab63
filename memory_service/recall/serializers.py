"""The recall request body and the shape of each result."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from memory_service.accounts.serializers import StrictBody, StrictCharField

MAX_QUERY_LENGTH = 1000
MAX_LIMIT = 50


def default_limit() -> int:
    """Return the configured default limit, read per request so that tests can override it."""
    return min(settings.MEMORY_DEFAULT_RECALL_LIMIT, MAX_LIMIT)


class StrictIntegerField(serializers.IntegerField):
    """An integer field that refuses strings, booleans and fractions instead of converting them."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class RecallRequestSerializer(StrictBody):
    query = StrictCharField(max_length=MAX_QUERY_LENGTH)
    limit = StrictIntegerField(min_value=1, max_value=MAX_LIMIT, default=default_limit)


class HitSerializer(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    tier = serializers.CharField()
    kind = serializers.CharField()
    score = serializers.FloatField()
    reason = serializers.CharField()
