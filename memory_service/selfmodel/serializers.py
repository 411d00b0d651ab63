"""The self-model on the wire: a domain's record, the outcome body and the listing's parameters."""

from __future__ import annotations

import unicodedata
from typing import Any, cast

from rest_framework import serializers

from memory_service.selfmodel.models import (
    FAILURE_PATTERN,
    MAX_DOMAIN_LENGTH,
    MAX_NOTE_LENGTH,
    STRATEGY,
    Domain,
)
from memory_service.serialization import (
    StrictBody,
    StrictBooleanField,
    StrictCharField,
    TimestampField,
)


class NoteSerializer(serializers.Serializer):
    text = serializers.CharField()
    count = serializers.IntegerField()
    lastSeenAt = TimestampField(source="last_seen_at")


class DomainSerializer(serializers.Serializer):
    """A domain's record; its notes must be prefetched (``Domain.objects.with_notes()``)."""

    domain = serializers.CharField(source="name")
    reliabilityScore = serializers.SerializerMethodField()
    samples = serializers.IntegerField()
    successes = serializers.IntegerField()
    failures = serializers.IntegerField()
    failurePatterns = serializers.SerializerMethodField()
    strategies = serializers.SerializerMethodField()
    updatedAt = TimestampField(source="updated_at")

    def get_reliabilityScore(self, domain: Domain) -> float:
        return float(round(domain.reliability, 3))

    def get_failurePatterns(self, domain: Domain) -> list[dict[str, Any]]:
        return _notes(domain, FAILURE_PATTERN)

    def get_strategies(self, domain: Domain) -> list[dict[str, Any]]:
        return _notes(domain, STRATEGY)


def _notes(domain: Domain, kind: str) -> list[dict[str, Any]]:
    # Filtered in Python: the prefetched notes hold both kinds, most recently seen first.
    notes = [note for note in domain.notes.all() if note.kind == kind]
    return cast(list[dict[str, Any]], NoteSerializer(notes, many=True).data)  # many: a list


def _note_field() -> StrictCharField:
    return StrictCharField(max_length=MAX_NOTE_LENGTH, required=False, allow_blank=True)


class OutcomeSerializer(StrictBody):
    domain = StrictCharField(max_length=MAX_DOMAIN_LENGTH)
    success = StrictBooleanField()
    failurePattern = _note_field()
    strategy = _note_field()

    def validate_domain(self, value: str) -> str:
        if not value.isprintable():
            raise serializers.ValidationError(
                "The domain must hold only printable characters, no control characters."
            )
        return value

    def validate_failurePattern(self, value: str) -> str:
        return _without_controls(value)

    def validate_strategy(self, value: str) -> str:
        return _without_controls(value)


def _without_controls(value: str) -> str:
    # Line breaks and tabs are folded into spaces when stored; other control characters
    # (a bell, an escape sequence) have no place in a line of a prompt.
    if any(unicodedata.category(char) == "Cc" and not char.isspace() for char in value):
        raise serializers.ValidationError("Control characters are not allowed here.")
    return value


class SelfModelQuerySerializer(StrictBody):
    domain = serializers.CharField(max_length=MAX_DOMAIN_LENGTH, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=100, default=50)
    cursor = serializers.CharField(max_length=1000, required=False)
