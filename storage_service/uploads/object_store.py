"""Multipart uploads on an S3-compatible object store: the store's own multipart upload.

Start opens one (``backend_upload_id``), each part is staged and goes up as the store's part
(its etag kept as ``UploadPart.backend_etag``), completion asks the store to join them (no bytes
pass through this service again except one streamed read for SHA-256 and a ranged read for
sniffing), and an abort or expiry aborts the store's upload, which deletes its parts.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from storage_service.accounts.models import Organisation
from storage_service.files.blobs.s3 import S3BlobStore
from storage_service.files.models import Category, File
from storage_service.files.services import file_register
from storage_service.files.sniffing import category_of, image_metadata
from storage_service.folders.models import Folder
from storage_service.uploads import assembly
from storage_service.uploads.lookups import open_upload, stored_etags
from storage_service.uploads.models import MultipartUpload, UploadPart
from storage_service.uploads.parts import (
    IMAGE_HEAD_SIZE,
    PartsBackend,
    check_listing,
    content_type_for,
    part_record,
    wrong_size,
)


class StoreParts(PartsBackend):
    """Parts in the object store's own multipart upload of the file's object."""

    def __init__(self, store: S3BlobStore) -> None:
        self.store = store

    def start(self, upload: MultipartUpload) -> None:
        """Open the store's multipart upload for ``upload``'s final object and keep its id."""
        upload.backend_upload_id = self.store.multipart_start(upload.storage_name)
        upload.save(update_fields=["backend_upload_id"])

    def part_store(
        self,
        *,
        org: Organisation,
        upload: MultipartUpload,
        part_number: int,
        body: assembly.Readable,
        expected: int,
        now: datetime,
    ) -> UploadPart:
        """Stage the part, then send it to the store (replacing an earlier one) and record it."""
        staged = assembly.stage_part(body, expected_size=expected)
        try:
            if staged.size != expected:
                raise wrong_size(part_number, expected, staged.size)
            with transaction.atomic():
                upload = open_upload(org=org, upload_id=upload.pk, now=now, lock=True)
                with open(staged.path, "rb") as staged_body:
                    backend_etag = self.store.multipart_put(
                        upload.storage_name,
                        upload_id=upload.backend_upload_id,
                        part_number=part_number,
                        body=staged_body,
                        size=staged.size,
                    )
                return part_record(upload, part_number, staged, backend_etag, now)
        finally:
            assembly.discard(staged.path)

    def complete(
        self,
        *,
        org: Organisation,
        upload: MultipartUpload,
        parts: Sequence[tuple[int, str]],
        now: datetime,
    ) -> File:
        """Have the store join the parts, then describe the object and record the file.

        The store's join cannot be undone, so the upload is finished from then on: if the file
        then no longer fits the quota, its object is deleted and the client starts again.
        """
        with transaction.atomic():
            upload = open_upload(org=org, upload_id=upload.pk, now=now, lock=True)
            check_listing(upload, parts, stored_etags(upload))
            backend_etags = dict(
                UploadPart.objects.filter(upload=upload).values_list("part_number", "backend_etag")
            )
            self.store.multipart_join(
                upload.storage_name,
                upload_id=upload.backend_upload_id,
                etags=[backend_etags[number] for number in range(1, upload.part_count + 1)],
            )
            upload.completed_at = now
            upload.save(update_fields=["completed_at"])
        name = upload.storage_name
        try:
            head = self.store.head(name, IMAGE_HEAD_SIZE)
            content_type = content_type_for(head, upload)
            metadata: dict[str, Any] = {}
            if category_of(content_type) == Category.IMAGE:
                metadata.update(image_metadata(io.BytesIO(head)))
            digest = hashlib.sha256()
            for chunk in self.store.chunks(name):
                digest.update(chunk)
            file = file_register(
                org=org,
                folder=Folder.objects.for_org(org).get_live_or_root(upload.folder_id),
                name=upload.name,
                size=upload.size,
                content_type=content_type,
                storage_name=name,
                sha256=digest.hexdigest(),
                metadata=metadata,
                now=now,
                file_id=upload.reserved_file_id,
            )
        except BaseException:
            self.store.delete(name)
            raise
        upload.file = file
        upload.save(update_fields=["file"])
        UploadPart.objects.filter(upload=upload).delete()
        return file

    def bytes_delete(self, upload_id: str) -> None:
        upload = MultipartUpload.objects.get(pk=upload_id)
        if upload.backend_upload_id:
            self.store.multipart_abort(upload.storage_name, upload_id=upload.backend_upload_id)
