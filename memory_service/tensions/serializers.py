"""The tension record on the wire, and the bodies and query of the tension endpoints."""

from __future__ import annotations

from typing import Any, cast

from rest_framework import serializers

from memory_service.memories.serializers import MemorySerializer
from memory_service.serialization import StrictBody, StrictCharField, TimestampField
from memory_service.tensions.models import (
    MAX_DESCRIPTION_LENGTH,
    MAX_NOTE_LENGTH,
    RESOLVED,
    STATUSES,
    Tension,
)

# Ids are far shorter; the bound keeps an issue from echoing a huge string back.
MAX_ID_LENGTH = 64


class TensionSerializer(serializers.Serializer):
    """A tension with both memories in full, older first, so that a client sees both sides.

    Serialize tensions loaded ``with_memories()``, or each record costs two more queries.
    """

    id = serializers.CharField()
    status = serializers.CharField()
    memoryIds = serializers.SerializerMethodField()
    description = serializers.CharField()
    createdAt = TimestampField(source="created_at")
    resolvedAt = TimestampField(source="resolved_at")
    resolution = serializers.SerializerMethodField()
    memories = serializers.SerializerMethodField()

    def get_memoryIds(self, tension: Tension) -> list[str]:
        return [tension.older_id, tension.newer_id]

    def get_resolution(self, tension: Tension) -> dict[str, Any] | None:
        if tension.status != RESOLVED:
            return None
        return {"keep": tension.kept, "note": tension.note or None, "lessonId": tension.lesson_id}

    def get_memories(self, tension: Tension) -> list[dict[str, Any]]:
        data = MemorySerializer([tension.older, tension.newer], many=True).data
        return cast(list[dict[str, Any]], data)  # many=True: a list


class TensionListQuerySerializer(StrictBody):
    status = serializers.ChoiceField(
        choices=STATUSES,
        required=False,
        error_messages={"invalid_choice": f"Unknown status; use one of {', '.join(STATUSES)}."},
    )
    limit = serializers.IntegerField(min_value=1, max_value=100, default=20)
    cursor = serializers.CharField(max_length=200, required=False)


class TensionOpenSerializer(StrictBody):
    memoryIds = serializers.ListField(
        child=StrictCharField(max_length=MAX_ID_LENGTH), min_length=2, max_length=2
    )
    description = StrictCharField(max_length=MAX_DESCRIPTION_LENGTH, required=False)

    def validate_memoryIds(self, value: list[str]) -> list[str]:
        if value[0] == value[1]:
            raise serializers.ValidationError("Name two different memories.")
        return value


class TensionResolveSerializer(StrictBody):
    keep = StrictCharField(max_length=MAX_ID_LENGTH)
    note = StrictCharField(max_length=MAX_NOTE_LENGTH, required=False, allow_null=True)
