from __future__ import annotations

from typing import Any

from django.core import signing
from django.urls import reverse
from rest_framework import serializers

from storage_service.clock import iso
from storage_service.files.models import File

DOWNLOAD_SALT = "storage.file-download"


def download_token(file: File) -> str:
    """A signed token naming the file; the download view accepts it for a limited time."""
    return signing.dumps([file.organisation_id, file.pk], salt=DOWNLOAD_SALT, compress=False)


class FileSerializer(serializers.BaseSerializer):
    """The contract's File record; ``url`` is a signed, expiring download link."""

    def to_representation(self, file: File) -> dict[str, Any]:
        request = self.context.get("request")
        path = reverse("file-download", kwargs={"token": download_token(file)})
        return {
            "id": file.pk,
            "name": file.name,
            "size": file.size,
            "type": file.content_type,
            "url": request.build_absolute_uri(path) if request is not None else path,
            "folderId": file.folder_id,
            "uploadedAt": iso(file.uploaded_at),
            "updatedAt": iso(file.updated_at),
            "metadata": {**file.metadata, "sha256": file.sha256} if file.sha256 else file.metadata,
        }
