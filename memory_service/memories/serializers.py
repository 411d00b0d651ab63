"""The memory record on the wire, and the bodies of the memory and turn endpoints."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework import serializers

from memory_service.extraction.candidates import KINDS
from memory_service.memories.models import (
    MAX_CONTENT_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SESSION_ID_LENGTH,
    TIERS,
)
from memory_service.serialization import (
    StrictBody,
    StrictCharField,
    StrictIntegerField,
    TimestampField,
)

# A turn is one exchange; a larger body is a transcript, which belongs in several turns.
MAX_MESSAGE_LENGTH = 20_000
MAX_STATEMENTS = 100


class BlankAsNull(serializers.CharField):
    """A string stored as "" when absent, and shown as null."""

    def to_representation(self, value: str) -> str | None:  # type: ignore[override]  # None: null
        return value or None


class MemorySerializer(serializers.Serializer):
    id = serializers.CharField()
    content = serializers.CharField()
    kind = serializers.CharField()
    tier = serializers.CharField()
    subject = BlankAsNull()
    domain = BlankAsNull()
    source = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.source
    sessionId = BlankAsNull(source="session_id")
    timesSeen = serializers.IntegerField(source="times_seen")
    createdAt = TimestampField(source="created_at")
    updatedAt = TimestampField(source="updated_at")
    lastUsedAt = TimestampField(source="last_used_at")


def _choice(choices: tuple[str, ...], name: str, **kwargs: Any) -> serializers.ChoiceField:
    message = f"Unknown {name}; use one of {', '.join(choices)}."
    return serializers.ChoiceField(
        choices=choices, error_messages={"invalid_choice": message}, **kwargs
    )


def _session_id() -> StrictCharField:
    return StrictCharField(max_length=MAX_SESSION_ID_LENGTH, required=False, allow_blank=True)


class StatementSerializer(StrictBody):
    content = StrictCharField(max_length=MAX_CONTENT_LENGTH)
    kind = _choice(KINDS, "kind", required=False)
    tier = _choice(TIERS, "tier", required=False)
    domain = StrictCharField(max_length=MAX_NAME_LENGTH, required=False, allow_blank=True)


class MemoriesStoreSerializer(StrictBody):
    """Either ``memories`` (a list of statements) or one statement's fields at the top level."""

    memories = StatementSerializer(many=True, required=False, allow_empty=False)
    content = StrictCharField(max_length=MAX_CONTENT_LENGTH, required=False)
    kind = _choice(KINDS, "kind", required=False)
    tier = _choice(TIERS, "tier", required=False)
    domain = StrictCharField(max_length=MAX_NAME_LENGTH, required=False, allow_blank=True)
    sessionId = _session_id()

    def validate_memories(self, value: list[dict]) -> list[dict]:
        if len(value) > MAX_STATEMENTS:
            raise serializers.ValidationError(f"At most {MAX_STATEMENTS} memories per request.")
        return value

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        single = {
            name: data[name] for name in ("content", "kind", "tier", "domain") if name in data
        }
        if "memories" in data and single:
            raise serializers.ValidationError(
                {
                    name: ["Send either memories or one memory's fields, not both."]
                    for name in single
                }
            )
        if "memories" not in data:
            if "content" not in data:
                raise serializers.ValidationError({"content": ["Send content, or memories."]})
            data["memories"] = [single]
        return data


class MemoryMoveSerializer(StrictBody):
    tier = _choice(TIERS, "tier")


class MemoryListQuerySerializer(StrictBody):
    tier = _choice(TIERS, "tier", required=False)
    kind = _choice(KINDS, "kind", required=False)
    domain = serializers.CharField(max_length=MAX_NAME_LENGTH, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)
    cursor = serializers.CharField(max_length=200, required=False)


class TurnSerializer(StrictBody):
    userMessage = StrictCharField(max_length=MAX_MESSAGE_LENGTH, trim_whitespace=False)
    assistantResponse = StrictCharField(
        max_length=MAX_MESSAGE_LENGTH, trim_whitespace=False, allow_blank=True
    )
    sessionId = _session_id()


def outcome_body(outcome: Any) -> dict[str, Any]:
    """Render an outcome as the turn result: ``counts``, ``rejected`` and the memories touched."""
    return {
        "counts": outcome.counts(),
        "rejected": [{"content": item.content, "reason": item.reason} for item in outcome.rejected],
        "memories": MemorySerializer(outcome.memories, many=True).data,
    }


# Recall

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
