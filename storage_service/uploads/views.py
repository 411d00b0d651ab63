from __future__ import annotations

import re

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from shared.openapi import INTEGER, NULLABLE_STRING, STRING, TIMESTAMP, array, path, record, ref
from storage_service import clock, errors
from storage_service.accounts.authentication import caller_organisation
from storage_service.accounts.permissions import FILES_WRITE
from storage_service.billing import notes
from storage_service.files.serializers import FileSerializer
from storage_service.openapi import COUNT, FILE_DATA, ID, MIME_TYPE, NAME, operation
from storage_service.parsers import JSONBodyParser
from storage_service.uploads import completion, services
from storage_service.uploads.lookups import open_upload
from storage_service.uploads.serializers import (
    MultipartUploadSerializer,
    UploadCompleteSerializer,
    UploadStartSerializer,
    UploadStateSerializer,
)

PART_NUMBER = re.compile(r"[0-9]{1,9}")


class UploadStartView(APIView):
    """POST /files/multipart-upload-start: open an upload and hand out one URL per part."""

    parser_classes = [JSONBodyParser]
    required_permissions = {"post": FILES_WRITE}

    @operation(
        "Open a multipart upload; PUT each part's bytes to its url",
        data=record(
            {
                "uploadId": STRING,
                "partSize": INTEGER,
                "partCount": INTEGER,
                "expiresAt": TIMESTAMP,
                "parts": array(ref("UploadPart")),
            }
        ),
        body=record(
            {
                "name": NAME,
                "size": COUNT,
                "type": {**MIME_TYPE, "nullable": True},
                "folderId": NULLABLE_STRING,
                "partSize": {**COUNT, "nullable": True},
            },
            optional=("type", "folderId", "partSize"),
        ),
        errors=("FOLDER_NOT_FOUND", "FILE_TOO_LARGE", "STORAGE_QUOTA_EXCEEDED"),
    )
    def post(self, request: Request) -> Response:
        body = UploadStartSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fields = body.validated_data
        upload = services.upload_start(
            org=caller_organisation(request),
            name=fields["name"],
            size=fields["size"],
            content_type=fields.get("type"),
            folder_id=fields.get("folderId"),
            part_size=fields.get("partSize"),
            now=clock.now(),
        )
        return Response(MultipartUploadSerializer(upload, context={"request": request}).data)


class UploadPartView(APIView):
    """PUT /files/multipart-upload/<uploadId>/parts/<partNumber>: the part's raw bytes.

    The body is never parsed nor read whole (``request.data`` and ``request.body`` stay
    untouched): the service streams it from the underlying request in chunks.
    """

    required_permissions = {"put": FILES_WRITE}

    @operation(
        "Store one part's raw bytes",
        data=record({"partNumber": INTEGER, "size": INTEGER, "etag": STRING}),
        body={"type": "string", "format": "binary"},
        media_type="application/octet-stream",
        parameters=[
            path("upload_id", "The uploadId."),
            path("part_number", "From 1 to partCount.", COUNT),
        ],
        errors=("UPLOAD_NOT_FOUND", "STORAGE_FULL"),
    )
    def put(self, request: Request, upload_id: str, part_number: str) -> Response:
        if not PART_NUMBER.fullmatch(part_number):
            raise errors.InvalidParameters(partNumber="Must be a whole number of at least 1.")
        part = services.upload_part_store(
            org=caller_organisation(request),
            upload_id=upload_id,
            part_number=int(part_number),
            body=request._request,
            declared_size=_content_length(request),
            now=clock.now(),
        )
        notes.note_upload(part.size)
        response = Response({"partNumber": part.part_number, "size": part.size, "etag": part.etag})
        response["ETag"] = f'"{part.etag}"'
        return response


class UploadCompleteView(APIView):
    """POST /files/multipart-upload-complete: join the parts into the file."""

    parser_classes = [JSONBodyParser]
    required_permissions = {"post": FILES_WRITE}

    @operation(
        "Join the parts into the file",
        data=FILE_DATA,
        body=record(
            {
                "uploadId": ID,
                "parts": {
                    **array(record({"partNumber": COUNT, "etag": STRING})),
                    "minItems": 1,
                },
            }
        ),
        errors=("UPLOAD_NOT_FOUND", "STORAGE_QUOTA_EXCEEDED", "STORAGE_FULL"),
    )
    def post(self, request: Request) -> Response:
        body = UploadCompleteSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        file = completion.upload_complete(
            org=caller_organisation(request),
            upload_id=body.validated_data["uploadId"],
            parts=body.validated_data["parts"],
            now=clock.now(),
        )
        return Response({"file": FileSerializer(file, context={"request": request}).data})


class UploadView(APIView):
    """GET /files/multipart-upload/<uploadId>: its parts so far; DELETE aborts it."""

    required_permissions = {"get": FILES_WRITE, "delete": FILES_WRITE}

    @operation(
        "An open upload's parts so far, to resume it",
        data=ref("UploadState"),
        parameters=[path("upload_id", "The uploadId.")],
        errors=("UPLOAD_NOT_FOUND",),
    )
    def get(self, request: Request, upload_id: str) -> Response:
        upload = open_upload(org=caller_organisation(request), upload_id=upload_id, now=clock.now())
        return Response(UploadStateSerializer(upload, context={"request": request}).data)

    @operation(
        "Abort an open upload and drop its parts",
        data=record({"message": STRING, "uploadId": STRING, "abortedAt": TIMESTAMP}),
        parameters=[path("upload_id", "The uploadId.")],
        errors=("UPLOAD_NOT_FOUND",),
    )
    def delete(self, request: Request, upload_id: str) -> Response:
        upload = services.upload_abort(
            org=caller_organisation(request), upload_id=upload_id, now=clock.now()
        )
        return Response(
            {
                "message": "Multipart upload aborted.",
                "uploadId": upload.pk,
                "abortedAt": clock.iso(upload.aborted_at),
            }
        )


def _content_length(request: Request) -> int | None:
    raw = request.META.get("CONTENT_LENGTH") or ""
    return int(raw) if raw.isascii() and raw.isdigit() else None
