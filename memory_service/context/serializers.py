"""The POST /v1/context body and the block on the wire."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from memory_service.context.block import Block
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


def block_body(block: Block) -> dict[str, Any]:
    # Plain dictionaries: a serializer field per value cost more than building the block.
    entries = [
        {
            "line": entry.line,
            "section": entry.section,
            "memoryId": entry.memory_id,
            "domain": entry.domain,
            "reason": entry.reason,
            "tokens": entry.tokens,
        }
        for entry in block.entries
    ]
    return {
        "text": block.text,
        "entries": entries,
        "totalTokens": block.total_tokens,
        "truncated": block.truncated,
    }
