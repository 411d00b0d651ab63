from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import serializers

from storage_service.clock import iso
from storage_service.files.models import MAX_NAME_LENGTH
from storage_service.files.sniffing import mime_essence
from storage_service.ids import MAX_ID_LENGTH
from storage_service.names import forbidden_character
from storage_service.serialization import (
    NameField,
    PositiveIntegerField,
    StrictBody,
    StrictCharField,
)
from storage_service.uploads.layout import MAX_PARTS
from storage_service.uploads.models import MultipartUpload

MAX_ETAG_LENGTH = 128
MIME_REFUSAL = "Must be a MIME type such as video/mp4."
FOLDER_REFUSAL = "Must be a folder id (a string)."


def normalise_etag(etag: str) -> str:
    """Compare etags as S3 clients send them: quoted or not, in either case."""
    return etag.strip().strip('"').lower()


def _text(message: str, **kwargs: Any) -> StrictCharField:
    """A string as sent (not trimmed) whose every failure of type or length says ``message``."""
    refusal: dict[str, Any] = {"invalid": message, "blank": message, "max_length": message}
    return StrictCharField(trim_whitespace=False, error_messages=refusal, **kwargs)


class UploadStartSerializer(StrictBody):
    name = NameField(
        max_length=MAX_NAME_LENGTH,
        error_messages=dict.fromkeys(
            ("invalid", "blank", "max_length"),
            f"Must be a string of 1 to {MAX_NAME_LENGTH} characters.",
        ),
    )
    size = PositiveIntegerField()
    type = _text(MIME_REFUSAL, required=False, allow_null=True, allow_blank=True)
    folderId = _text(
        FOLDER_REFUSAL, max_length=MAX_ID_LENGTH, required=False, allow_null=True, allow_blank=True
    )
    partSize = PositiveIntegerField(required=False, allow_null=True)

    def validate_name(self, value: str) -> str:
        if not value.strip() or value in {".", ".."}:
            raise serializers.ValidationError("Must be a file name, not only spaces or dots.")
        if "/" in value or "\\" in value:
            raise serializers.ValidationError("Must not contain / or \\.")
        if problem := forbidden_character(value):
            raise serializers.ValidationError(problem)
        return value

    def validate_type(self, value: str | None) -> str | None:
        """A MIME type such as ``video/mp4``; parameters (``; charset=...``) are dropped."""
        if value is None:
            return None
        essence = mime_essence(value)
        if essence is None:
            raise serializers.ValidationError(MIME_REFUSAL)
        return essence

    def validate_folderId(self, value: str | None) -> str | None:
        return value or None


class UploadCompleteSerializer(StrictBody):
    uploadId = _text("Must be an upload id (a string).", max_length=MAX_ID_LENGTH)
    # Checked by hand: each refusal names the item at fault.
    parts = serializers.JSONField()

    def validate_parts(self, value: Any) -> list[tuple[int, str]]:
        """Return ``(partNumber, etag)`` pairs in the order given; the service checks them."""
        if not isinstance(value, list) or not 1 <= len(value) <= MAX_PARTS:
            raise serializers.ValidationError(
                f"Must be an array of 1 to {MAX_PARTS} objects with partNumber and etag."
            )
        listed = []
        for index, item in enumerate(value):
            if not isinstance(item, dict) or set(item) != {"partNumber", "etag"}:
                raise serializers.ValidationError(
                    f"Item {index} must be an object with exactly partNumber and etag."
                )
            number, etag = item["partNumber"], item["etag"]
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise serializers.ValidationError(
                    f"Item {index}: partNumber must be a whole number of at least 1."
                )
            if not isinstance(etag, str) or not 1 <= len(etag) <= MAX_ETAG_LENGTH:
                raise serializers.ValidationError(f"Item {index}: etag must be a string.")
            listed.append((number, normalise_etag(etag)))
        return listed


class MultipartUploadSerializer(serializers.BaseSerializer):
    """An open upload as POST /files/multipart-upload-start answers it, with every part's URL."""

    def to_representation(self, upload: MultipartUpload) -> dict[str, Any]:
        request = self.context["request"]
        return {
            "uploadId": upload.pk,
            "partSize": upload.part_size,
            "partCount": upload.part_count,
            "expiresAt": iso(upload.expires_at),
            "parts": [
                {"partNumber": number, "url": request.build_absolute_uri(part_path(upload, number))}
                for number in range(1, upload.part_count + 1)
            ],
        }


class UploadStateSerializer(serializers.BaseSerializer):
    """An open upload as GET answers it: what a client that lost its state needs to resume.

    Every part is listed, as at the start, with its expected ``size``; ``etag`` and
    ``uploadedAt`` are null until the part has arrived, and ``missingParts`` lists those.
    """

    def to_representation(self, upload: MultipartUpload) -> dict[str, Any]:
        request = self.context["request"]
        stored = {part.part_number: part for part in upload.parts.all()}
        parts = []
        for number in range(1, upload.part_count + 1):
            part = stored.get(number)
            parts.append(
                {
                    "partNumber": number,
                    "url": request.build_absolute_uri(part_path(upload, number)),
                    "size": part.size if part else upload.part_size_of(number),
                    "etag": part.etag if part else None,
                    "uploadedAt": iso(part.created_at) if part else None,
                }
            )
        return {
            "uploadId": upload.pk,
            "name": upload.name,
            "size": upload.size,
            "type": upload.content_type or None,
            "folderId": upload.folder_id,
            "partSize": upload.part_size,
            "partCount": upload.part_count,
            "createdAt": iso(upload.created_at),
            "expiresAt": iso(upload.expires_at),
            "parts": parts,
            "missingParts": [n for n in range(1, upload.part_count + 1) if n not in stored],
        }


def part_path(upload: MultipartUpload, part_number: int) -> str:
    return reverse(
        "multipart-upload-part", kwargs={"upload_id": upload.pk, "part_number": part_number}
    )
