from __future__ import annotations

from typing import Any

from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from shared.openapi import (
    BOOLEAN,
    INTEGER,
    NULLABLE_STRING,
    STRING,
    TIMESTAMP,
    array,
    query,
    record,
    ref,
)
from storage_service import clock
from storage_service.accounts.authentication import caller_organisation
from storage_service.accounts.permissions import FOLDERS_READ, FOLDERS_WRITE
from storage_service.folders import services, trash, updates
from storage_service.folders.models import Folder
from storage_service.folders.serializers import (
    DELETE_PARAMETERS,
    LIST_PARAMETERS,
    ROOT,
    FolderBulkDeleteSerializer,
    FolderCreateSerializer,
    FolderDeleteQuerySerializer,
    FolderListQuerySerializer,
    FolderSerializer,
    FolderUpdateSerializer,
    TrashedFolderSerializer,
)
from storage_service.openapi import FOLDER_DATA, FOLDER_DELETION, IDS, NAME, PAGE_QUERY, operation
from storage_service.pagination import PAGE_PARAMETERS, PageQuerySerializer, paginate
from storage_service.unchanged import UNCHANGED


def deletion_message(outcome: services.FolderDeletion, *, recursive: bool, dry_run: bool) -> str:
    if dry_run:
        return "Dry run: nothing was deleted; the counts say what the deletion would do."
    done = "deleted permanently" if outcome.permanent else "moved to the trash"
    if not recursive:
        return f"Folder {done}; its files and subfolders moved up to its parent."
    if outcome.permanent:
        return "Folder and its contents deleted permanently."
    return "Folder and its contents moved to the trash; restorable for 30 days."


def deletion_data(outcome: services.FolderDeletion) -> dict[str, Any]:
    return {
        "folderId": outcome.folder_id,
        "deletedFiles": outcome.deleted_files,
        "deletedSubfolders": outcome.deleted_subfolders,
        "freedSpace": outcome.freed_space,
    }


class FolderViewSet(viewsets.ViewSet):
    required_permissions = {
        "list": FOLDERS_READ,
        "retrieve": FOLDERS_READ,
        "trash_list": FOLDERS_READ,
        "create": FOLDERS_WRITE,
        "partial_update": FOLDERS_WRITE,
        "destroy": FOLDERS_WRITE,
        "bulk_destroy": FOLDERS_WRITE,
        "restore": FOLDERS_WRITE,
    }
    query_parameters = {
        "list": LIST_PARAMETERS,
        "trash_list": PAGE_PARAMETERS,
        "destroy": DELETE_PARAMETERS,
    }

    @operation(
        "List live folders by name, paginated",
        data=record({"folders": array(ref("Folder")), "pagination": ref("Pagination")}),
        parameters=[
            *PAGE_QUERY,
            query("parentFolderId", STRING, "Only this folder's children; root for the top."),
        ],
        errors=("FOLDER_NOT_FOUND",),
    )
    def list(self, request: Request) -> Response:
        params = FolderListQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        parent_id = params.validated_data["parent_id"]
        folders = Folder.objects.for_org(caller_organisation(request)).live()
        if parent_id == ROOT:
            folders = folders.filter(parent__isnull=True)
        elif parent_id is not None:
            parent = folders.get_live(parent_id)
            folders = folders.filter(parent=parent)
        page, pagination = paginate(folders.order_by("name", "id"), params.validated_data["page"])
        return Response(
            {"folders": FolderSerializer(page, many=True).data, "pagination": pagination}
        )

    @operation("Get a folder", data=FOLDER_DATA, errors=("FOLDER_NOT_FOUND",), detail=True)
    def retrieve(self, request: Request, pk: str) -> Response:
        folder = Folder.objects.for_org(caller_organisation(request)).get_live(pk)
        return Response({"folder": FolderSerializer(folder).data})

    @operation(
        "Create a folder",
        data=FOLDER_DATA,
        body=record(
            {"name": NAME, "parentFolderId": NULLABLE_STRING}, optional=("parentFolderId",)
        ),
        errors=("FOLDER_NOT_FOUND",),
    )
    def create(self, request: Request) -> Response:
        body = FolderCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        folder = services.folder_create(
            org=caller_organisation(request),
            name=body.validated_data["name"],
            parent_id=body.validated_data.get("parentFolderId"),
            now=clock.now(),
        )
        return Response({"folder": FolderSerializer(folder).data})

    @operation(
        "Rename a folder or move it (never into its own subtree)",
        data=FOLDER_DATA,
        body=record(
            {"name": NAME, "parentFolderId": NULLABLE_STRING},
            optional=("name", "parentFolderId"),
        ),
        errors=("FOLDER_NOT_FOUND",),
        detail=True,
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        body = FolderUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        folder = updates.folder_update(
            org=caller_organisation(request),
            folder_id=pk,
            name=body.validated_data.get("name"),
            parent_id=body.validated_data.get("parentFolderId", UNCHANGED),
            now=clock.now(),
        )
        return Response({"folder": FolderSerializer(folder).data})

    @operation(
        "Delete a folder: to the trash or for good, by the organisation's setting",
        data=record(
            {"message": STRING, **FOLDER_DELETION, "deletedAt": TIMESTAMP},
        ),
        parameters=[
            query("force", BOOLEAN, "Delete even if the folder's subtree holds files."),
            query("recursive", BOOLEAN, "Default true; false moves the contents up."),
            query("dryRun", BOOLEAN, "Count what would be deleted; delete nothing."),
        ],
        errors=("FOLDER_NOT_FOUND", "FOLDER_NOT_EMPTY", "FOLDER_IN_USE"),
        detail=True,
    )
    def destroy(self, request: Request, pk: str) -> Response:
        params = FolderDeleteQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        options = params.validated_data
        now = clock.now()
        outcome = services.folder_delete(
            org=caller_organisation(request), folder_id=pk, **options, now=now
        )
        return Response(
            {
                "message": deletion_message(
                    outcome, recursive=options["recursive"], dry_run=options["dry_run"]
                ),
                **deletion_data(outcome),
                "deletedAt": clock.iso(now),
            }
        )

    @operation(
        "Delete several folders; each succeeds or fails on its own",
        data=record(
            {
                "deleted": array(ref("FolderDeletion")),
                "failed": array(record({"folderId": STRING, "code": STRING, "reason": STRING})),
                "totalFreedSpace": INTEGER,
                "deletedAt": TIMESTAMP,
            }
        ),
        body=record(
            {"folderIds": IDS, "force": BOOLEAN, "recursive": BOOLEAN, "dryRun": BOOLEAN},
            optional=("force", "recursive", "dryRun"),
        ),
    )
    @action(detail=False, methods=["delete"], url_path="bulk")
    def bulk_destroy(self, request: Request) -> Response:
        body = FolderBulkDeleteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = body.validated_data
        now = clock.now()
        outcome = services.folders_delete_bulk(
            org=caller_organisation(request),
            folder_ids=fields["folderIds"],
            force=fields.get("force", False),
            recursive=fields.get("recursive", True),
            dry_run=fields.get("dryRun", False),
            now=now,
        )
        return Response(
            {
                "deleted": [deletion_data(deletion) for deletion in outcome.deleted],
                "failed": outcome.failed,
                "totalFreedSpace": outcome.freed_space,
                "deletedAt": clock.iso(now),
            }
        )

    @operation(
        "List the folders in the trash, restorable for 30 days",
        data=record({"folders": array(ref("TrashedFolder")), "pagination": ref("Pagination")}),
        parameters=PAGE_QUERY,
    )
    @action(detail=False, methods=["get"], url_path="trash")
    def trash_list(self, request: Request) -> Response:
        params = PageQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        trashed, pagination = trash.trash_list(
            org=caller_organisation(request),
            page_request=params.validated_data["page"],
            now=clock.now(),
        )
        return Response(
            {
                "folders": TrashedFolderSerializer(trashed, many=True).data,
                "pagination": pagination,
            }
        )

    @operation(
        "Bring a folder back from the trash with its contents",
        data=record(
            {"folder": ref("Folder"), "restoredFiles": INTEGER, "restoredSubfolders": INTEGER}
        ),
        errors=("FOLDER_NOT_FOUND", "STORAGE_QUOTA_EXCEEDED"),
        detail=True,
    )
    @action(detail=True, methods=["post"])
    def restore(self, request: Request, pk: str) -> Response:
        restored = trash.folder_restore(
            org=caller_organisation(request), folder_id=pk, now=clock.now()
        )
        return Response(
            {
                "folder": FolderSerializer(restored.folder).data,
                "restoredFiles": restored.restored_files,
                "restoredSubfolders": restored.restored_subfolders,
            }
        )
