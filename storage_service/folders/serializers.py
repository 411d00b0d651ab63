from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework import serializers

from storage_service.clock import iso
from storage_service.folders.models import MAX_NAME_LENGTH, Folder
from storage_service.ids import is_id
from storage_service.names import forbidden_character
from storage_service.pagination import PAGE_PARAMETERS, PageQuerySerializer
from storage_service.serialization import (
    PatchBody,
    QueryFlag,
    QueryText,
    StrictBody,
    StrictBooleanField,
)

if TYPE_CHECKING:
    from storage_service.folders.trash import TrashedFolder

MAX_BULK_IDS = 100
ROOT = "root"  # GET /folders?parentFolderId=root lists the top-level folders
LIST_PARAMETERS = (*PAGE_PARAMETERS, "parentFolderId")
DELETE_PARAMETERS = ("force", "recursive", "dryRun")


class FolderSerializer(serializers.BaseSerializer):
    """The folder record of the contract (decisions.md: Folders)."""

    def to_representation(self, folder: Folder) -> dict[str, Any]:
        return {
            "folderId": folder.pk,
            "name": folder.name,
            "parentFolderId": folder.parent_id,
            "createdAt": iso(folder.created_at),
            "updatedAt": iso(folder.updated_at),
        }


def name_problem(name: Any) -> str | None:
    """Say what is wrong with ``name`` as a folder name, or None when it is fine."""
    if not isinstance(name, str):
        return "The name must be a string."
    if not name.strip(" "):
        return "The name must not be empty or only spaces."
    if len(name) > MAX_NAME_LENGTH:
        return f"The name must be at most {MAX_NAME_LENGTH} characters."
    if name in {".", ".."}:
        return 'The name must not be "." or "..".'
    if "/" in name or "\\" in name:
        return "The name must not contain / or \\."
    return forbidden_character(name)


class FolderCreateSerializer(StrictBody):
    name = serializers.JSONField(
        allow_null=True, error_messages={"required": "The name is required."}
    )
    parentFolderId = serializers.JSONField(required=False, allow_null=True)

    def validate_name(self, name: Any) -> str:
        problem = name_problem(name)
        if problem:
            raise serializers.ValidationError(problem)
        return name

    def validate_parentFolderId(self, value: Any) -> str | None:
        if value is not None and not is_id(value):
            raise serializers.ValidationError("Must be a folder id (a string) or null.")
        return value


class FolderUpdateSerializer(PatchBody):
    """PATCH /folders/{folderId}: ``name``, ``parentFolderId`` (null: the root)."""

    name = serializers.JSONField(required=False, allow_null=True)
    parentFolderId = serializers.JSONField(required=False, allow_null=True)

    validate_name = FolderCreateSerializer.validate_name
    validate_parentFolderId = FolderCreateSerializer.validate_parentFolderId


class TrashedFolderSerializer(serializers.BaseSerializer):
    """A folder in the trash: its record, when it went and goes for good, and what it holds."""

    def to_representation(self, trashed: TrashedFolder) -> dict[str, Any]:
        return {
            **FolderSerializer(trashed.folder).data,
            "deletedAt": iso(trashed.folder.deleted_at),
            "purgeAt": iso(trashed.purge_at),
            "files": trashed.files,
            "subfolders": trashed.subfolders,
            "size": trashed.size,
        }


class FolderBulkDeleteSerializer(StrictBody):
    folderIds = serializers.JSONField(
        allow_null=True, error_messages={"required": "An array of folder ids is required."}
    )
    force = StrictBooleanField(required=False)
    recursive = StrictBooleanField(required=False)
    dryRun = StrictBooleanField(required=False)

    def validate_folderIds(self, value: Any) -> list[str]:
        if (
            not isinstance(value, list)
            or not 0 < len(value) <= MAX_BULK_IDS
            or not all(is_id(item) for item in value)
        ):
            raise serializers.ValidationError(
                f"Must be an array of 1 to {MAX_BULK_IDS} folder ids (strings)."
            )
        return value


class FolderDeleteQuerySerializer(serializers.Serializer):
    force = QueryFlag(default=False)
    recursive = QueryFlag(default=True)
    dryRun = QueryFlag(default=False, source="dry_run")


class FolderListQuerySerializer(PageQuerySerializer):
    parentFolderId = QueryText(source="parent_id", default=None)

    def validate_parentFolderId(self, value: str | None) -> str | None:
        if value is not None and not is_id(value):
            raise serializers.ValidationError(f"Must be a folder id or {ROOT}.")
        return value
