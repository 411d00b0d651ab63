"""One DRF function view answering a page of 20 files in the storage envelope, from memory."""

from __future__ import annotations

from django.urls import path
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

PAGE = 20


def file_record(index: int) -> dict:
    """A dict shaped like the storage service's File record."""
    return {
        "id": f"00000000-0000-4000-8000-{index:012d}",
        "name": f"bench-{index:04d}.bin",
        "size": 1024 + index,
        "type": "application/octet-stream",
        "url": f"/v1/files/00000000-0000-4000-8000-{index:012d}/download",
        "folderId": None,
        "uploadedAt": "2025-01-01T00:00:00.000000Z",
        "updatedAt": "2025-01-01T00:00:00.000000Z",
        "metadata": {"sha256": f"{index:064x}"},
    }


@api_view(["GET"])
def files(request: Request) -> Response:
    page = [file_record(index) for index in range(PAGE)]
    pagination = {
        "page": 1,
        "limit": PAGE,
        "total": PAGE,
        "totalPages": 1,
        "hasNext": False,
        "hasPrev": False,
    }
    return Response(
        {"success": True, "data": {"files": page, "pagination": pagination}, "error": None}
    )


urlpatterns = [path("files", files)]
