"""The POST /v1/context body and the block on the wire."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from memory_service.memories.models import MAX_SESSION_ID_LENGTH
from memory_service.serialization import StrictBody, StrictCharField, StrictIntegerField

# A message or transcript may be a pasted document; what it costs is bounded by the builder.
MAX_TEXT_LENGTH = 1_000_000
# Beyond any model's context window: a ceiling above it is a mistake, not a request.
MAX_TOKENS = 1_000_000
MAX_PINS = 100
MEMORY_ID_LENGTH = 32


class ContextRequestSerializer(StrictBody):
    userMessage = StrictCharField(
        max_length=MAX_TEXT_LENGTH, allow_blank=True, trim_whitespace=False, default=""
    )
    transcript = StrictCharField(
        max_length=MAX_TEXT_LENGTH, allow_blank=True, trim_whitespace=False, default=""
    )
    sessionId = StrictCharField(max_length=MAX_SESSION_ID_LENGTH, allow_blank=True, default="")
    forceFull = serializers.ListField(
        child=StrictCharField(max_length=MEMORY_ID_LENGTH), max_length=MAX_PINS, default=list
    )
    maxTokens = StrictIntegerField(min_value=1, max_value=MAX_TOKENS, required=False)


class EntrySerializer(serializers.Serializer):
    line = serializers.CharField()
    section = serializers.CharField()
    memoryId = serializers.CharField(source="memory_id", allow_null=True)
    domain = serializers.CharField(allow_null=True)
    reason = serializers.CharField()
    tokens = serializers.IntegerField()


def block_body(block: Any) -> dict[str, Any]:
    return {
        "text": block.text,
        "entries": EntrySerializer(block.entries, many=True).data,
        "totalTokens": block.total_tokens,
        "truncated": block.truncated,
    }
