from __future__ import annotations

import json
from typing import Any

from django.core import signing
from django.urls import reverse
from rest_framework import serializers

from storage_service import errors
from storage_service.clock import iso
from storage_service.files.listing import MAX_SEARCH_LENGTH, SORT_FIELDS
from storage_service.files.models import Category, File
from storage_service.files.services import MEASURED_METADATA, clean_file_name
from storage_service.files.sniffing import MIME_TYPE
from storage_service.ids import MAX_ID_LENGTH
from storage_service.pagination import PageQuerySerializer
from storage_service.serialization import (
    NameField,
    PatchBody,
    QueryChoice,
    QueryText,
    StrictCharField,
)

DOWNLOAD_SALT = "storage.file-download"
FOLDER_REFUSAL = "Must be a folder id (a string) or null."
# Free-form, but not a place to store documents: 16 KiB as compact UTF-8 JSON.
MAX_METADATA_BYTES = 16 * 1024


def download_token(file: File, signer: signing.TimestampSigner | None = None) -> str:
    """A signed token naming the file; the download view accepts it for a limited time."""
    signer = signer or signing.TimestampSigner(salt=DOWNLOAD_SALT)
    return signer.sign_object([file.organisation_id, file.pk])


class FileSerializer(serializers.BaseSerializer):
    """The contract's File record; ``url`` is a signed, expiring download link."""

    def to_representation(self, file: File) -> dict[str, Any]:
        return {
            "id": file.pk,
            "name": file.name,
            "size": file.size,
            "type": file.content_type,
            "url": self._download_url(file),
            "folderId": file.folder_id,
            "uploadedAt": iso(file.uploaded_at),
            "updatedAt": iso(file.updated_at),
            "metadata": {**file.metadata, "sha256": file.sha256} if file.sha256 else file.metadata,
        }

    def _download_url(self, file: File) -> str:
        # A page of files shares one signer and one reversed link around the token (a list's
        # child serializer is one instance): reversing a URL costs more than signing one.
        if not hasattr(self, "_link"):
            request = self.context.get("request")
            path = reverse("file-download", kwargs={"token": _SLOT})
            link = request.build_absolute_uri(path) if request is not None else path
            self._link = link.rpartition(_SLOT)
            self._signer = signing.TimestampSigner(salt=DOWNLOAD_SALT)
        head, _, tail = self._link
        return f"{head}{download_token(file, self._signer)}{tail}"


# Where the token goes in a reversed link (its last occurrence: the host may hold the word too);
# signed tokens hold only characters a URL keeps as they are (URL-safe base64 and ":"), so the
# link around them is the same for every file.
_SLOT = "slot"


class FileUpdateSerializer(PatchBody):
    """PATCH /files/{fileId}: ``name``, ``folderId`` (null: the root), ``metadata``."""

    name = NameField(
        required=False,
        allow_blank=True,
        error_messages={
            "invalid": "The name must be a string.",
            "null": "The name must be a string.",
        },
    )
    folderId = StrictCharField(
        required=False,
        allow_null=True,
        trim_whitespace=False,
        max_length=MAX_ID_LENGTH,
        error_messages=dict.fromkeys(("invalid", "blank", "max_length"), FOLDER_REFUSAL),
    )
    # Free-form JSON: checked by hand, each refusal naming the key at fault.
    metadata = serializers.JSONField(required=False, allow_null=True)

    def validate_name(self, value: str) -> str:
        try:
            return clean_file_name(value)  # the rules of an upload's name
        except errors.InvalidParameters as error:
            raise serializers.ValidationError(list(error.details.values())) from error

    def validate_metadata(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise serializers.ValidationError("Must be a JSON object.")
        if "sha256" in value:
            raise serializers.ValidationError(
                {"sha256": "The hash of the file's bytes is the server's; it cannot be set."}
            )
        for key in MEASURED_METADATA:
            if key in value and (
                isinstance(value[key], bool) or not isinstance(value[key], int | float)
            ):
                raise serializers.ValidationError({key: "Must be a number."})
        if holds_nul(value):
            # PostgreSQL's jsonb cannot store U+0000, in a key or in a string.
            raise serializers.ValidationError("Text in metadata may not contain NUL characters.")
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > MAX_METADATA_BYTES:
            raise serializers.ValidationError(
                f"Must be at most {MAX_METADATA_BYTES} bytes as compact JSON; this is {size}."
            )
        return value


def holds_nul(value: Any) -> bool:
    """Tell whether a NUL character stands in any key or string of the JSON ``value``."""
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if any("\x00" in key for key in item):
                return True
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str) and "\x00" in item:
            return True
    return False


class FileListQuerySerializer(PageQuerySerializer):
    """GET /files's parameters, read as the keyword arguments of a ``listing.FileQuery``."""

    folderId = QueryText(source="folder_id", default="")
    type = QueryText(default="")
    search = QueryText(max_length=MAX_SEARCH_LENGTH, default="")
    sortBy = QueryChoice(SORT_FIELDS, source="sort_by", default="uploadedAt")
    sortOrder = QueryChoice(("asc", "desc"), message="Must be asc or desc.", default="desc")

    def validate_type(self, value: str) -> tuple[str | None, str | None]:
        """Return ``(category, MIME type)``: a category, ``category/*``, or one MIME type."""
        wanted = value.strip().lower()
        if not wanted:
            return None, None
        if wanted.removesuffix("/*") in Category.values:
            return wanted.removesuffix("/*"), None
        if MIME_TYPE.fullmatch(wanted):
            return None, wanted
        kinds = ", ".join(Category.values)
        raise serializers.ValidationError(
            f"Must be one of {kinds}, or a MIME type such as image/png."
        )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        attrs["category"], attrs["mime_type"] = attrs.pop("type")
        attrs["descending"] = attrs.pop("sortOrder") == "desc"
        attrs["folder_id"] = attrs["folder_id"] or None
        attrs["search"] = attrs["search"] or None
        return attrs
