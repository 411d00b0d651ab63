"""The recall request body and the shape of each result."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from memory_service.serialization import StrictBody, StrictCharField, StrictIntegerField

MAX_QUERY_LENGTH = 1000
MAX_LIMIT = 50


def default_limit() -> int:
    """Return the configured default limit, read per request so that tests can override it."""
    return min(settings.MEMORY_DEFAULT_RECALL_LIMIT, MAX_LIMIT)


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
