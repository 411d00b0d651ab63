from __future__ import annotations

from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from shared.openapi import INTEGER, NULLABLE_STRING, STRING, TIMESTAMP, array, query, record, ref
from storage_service import clock, errors
from storage_service.accounts.authentication import caller_organisation
from storage_service.accounts.permissions import FILES_READ, FILES_WRITE
from storage_service.billing import notes
from storage_service.files import services
from storage_service.files.listing import (
    QUERY_PARAMETERS,
    SORT_FIELDS,
    FileQuery,
    list_files,
)
from storage_service.files.models import File
from storage_service.files.serializers import (
    FileListQuerySerializer,
    FileSerializer,
    FileUpdateSerializer,
)
from storage_service.ids import is_id
from storage_service.openapi import FILE_DATA, NAME, PAGE_QUERY, operation
from storage_service.unchanged import UNCHANGED


class FileViewSet(viewsets.ViewSet):
    required_permissions = {
        "list": FILES_READ,
        "retrieve": FILES_READ,
        "partial_update": FILES_WRITE,
        "destroy": FILES_WRITE,
        "upload": FILES_WRITE,
    }
    query_parameters = {"list": QUERY_PARAMETERS}

    @operation(
        "List live files, filtered, sorted and paginated",
        data=record({"files": array(ref("File")), "pagination": ref("Pagination")}),
        parameters=[
            *PAGE_QUERY,
            query("folderId", STRING, "Only files in this folder."),
            query("type", STRING, "image, document, video, audio, other, or a MIME type."),
            query("search", STRING, "A part of the file name."),
            query("sortBy", {"type": "string", "enum": list(SORT_FIELDS)}, "Default uploadedAt."),
            query("sortOrder", {"type": "string", "enum": ["asc", "desc"]}, "Default desc."),
        ],
        errors=("FOLDER_NOT_FOUND",),
    )
    def list(self, request: Request) -> Response:
        params = FileListQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        files, pagination = list_files(
            caller_organisation(request), FileQuery(**params.validated_data)
        )
        data = FileSerializer(files, many=True, context={"request": request}).data
        return Response({"files": data, "pagination": pagination})

    @operation("Get a file", data=FILE_DATA, errors=("FILE_NOT_FOUND",), detail=True)
    def retrieve(self, request: Request, pk: str) -> Response:
        file = File.objects.for_org(caller_organisation(request)).live().filter(pk=pk).first()
        if file is None:
            raise errors.FileNotFound(fileId=pk)
        return Response({"file": FileSerializer(file, context={"request": request}).data})

    @operation(
        "Rename a file, move it or replace its metadata",
        data=FILE_DATA,
        body=record(
            {"name": NAME, "folderId": NULLABLE_STRING, "metadata": {"type": "object"}},
            optional=("name", "folderId", "metadata"),
        ),
        errors=("FILE_NOT_FOUND", "FOLDER_NOT_FOUND"),
        detail=True,
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        body = FileUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = body.validated_data
        file = services.file_update(
            org=caller_organisation(request),
            file_id=pk,
            name=fields.get("name"),
            folder_id=fields.get("folderId", UNCHANGED),
            metadata=fields.get("metadata"),
            now=clock.now(),
        )
        return Response({"file": FileSerializer(file, context={"request": request}).data})

    @operation(
        "Delete a file and free its space",
        data=record(
            {"message": STRING, "fileId": STRING, "freedSpace": INTEGER, "deletedAt": TIMESTAMP}
        ),
        errors=("FILE_NOT_FOUND",),
        detail=True,
    )
    def destroy(self, request: Request, pk: str) -> Response:
        deletion = services.file_delete(org=caller_organisation(request), file_id=pk)
        return Response(
            {
                "message": "File deleted.",
                "fileId": deletion.file_id,
                "freedSpace": deletion.freed_space,
                "deletedAt": clock.iso(clock.now()),
            }
        )

    @operation(
        "Upload one file as a multipart form (the part named file)",
        data=FILE_DATA,
        body=record(
            {"file": {"type": "string", "format": "binary"}, "folderId": STRING},
            optional=("folderId",),
        ),
        media_type="multipart/form-data",
        errors=(
            *("FOLDER_NOT_FOUND", "FILE_TOO_LARGE", "STORAGE_QUOTA_EXCEEDED"),
            "STORAGE_FULL",
        ),
    )
    @action(detail=False, methods=["post"], url_path="upload")
    def upload(self, request: Request) -> Response:
        uploaded = request.FILES.get("file")
        if uploaded is None:
            raise errors.InvalidParameters(file="Send the file as the multipart part named file.")
        unknown = sorted(set(request.data) - {"file", "folderId"})
        if unknown:
            raise errors.InvalidParameters(**dict.fromkeys(unknown[:20], "Unknown field."))
        folder_id = request.data.get("folderId") or None
        if folder_id is not None and not is_id(folder_id):
            raise errors.InvalidParameters(folderId="Must be a folder id.")
        file = services.file_upload(
            org=caller_organisation(request),
            uploaded=uploaded,
            folder_id=folder_id,
            now=clock.now(),
        )
        notes.note_upload(file.size)
        return Response({"file": FileSerializer(file, context={"request": request}).data})
