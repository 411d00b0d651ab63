from __future__ import annotations

from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from storage_service import clock, errors
from storage_service.accounts.authentication import caller_organisation
from storage_service.accounts.permissions import FILES_READ, FILES_WRITE
from storage_service.billing import notes
from storage_service.files import services
from storage_service.files.listing import QUERY_PARAMETERS, list_files, parse_file_query
from storage_service.files.models import File
from storage_service.files.serializers import FileSerializer, FileUpdateSerializer
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

    def list(self, request: Request) -> Response:
        files, pagination = list_files(
            caller_organisation(request), parse_file_query(request.query_params)
        )
        data = FileSerializer(files, many=True, context={"request": request}).data
        return Response({"files": data, "pagination": pagination})

    def retrieve(self, request: Request, pk: str) -> Response:
        file = File.objects.for_org(caller_organisation(request)).live().filter(pk=pk).first()
        if file is None:
            raise errors.FileNotFound(fileId=pk)
        return Response({"file": FileSerializer(file, context={"request": request}).data})

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

    @action(detail=False, methods=["post"], url_path="upload")
    def upload(self, request: Request) -> Response:
        uploaded = request.FILES.get("file")
        refused = getattr(request._request, "upload_refused", None)
        if refused is not None:
            raise refused
        if uploaded is None:
            raise errors.InvalidParameters(file="Send the file as the multipart part named file.")
        unknown = sorted(set(request.data) - {"file", "folderId"})
        if unknown:
            raise errors.InvalidParameters(**dict.fromkeys(unknown[:20], "Unknown field."))
        file = services.file_upload(
            org=caller_organisation(request),
            uploaded=uploaded,
            folder_id=request.data.get("folderId"),
            now=clock.now(),
        )
        notes.note_upload(file.size)
        return Response({"file": FileSerializer(file, context={"request": request}).data})
