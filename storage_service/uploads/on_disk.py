"""Multipart uploads on this machine's disk: parts written in place, the file moved into place.

Each part goes straight into the upload's data file at its own offset (``assembly``), so
completing only hashes that file and, with the file's row, renames it to the file's blob.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files.blobs.local import LocalBlobStore
from storage_service.files.models import Category, File
from storage_service.files.services import file_register
from storage_service.files.sniffing import category_of, image_metadata
from storage_service.folders.models import Folder
from storage_service.uploads import assembly
from storage_service.uploads.lookups import open_upload, stored_etags
from storage_service.uploads.models import MultipartUpload, UploadPart
from storage_service.uploads.parts import (
    PartsBackend,
    check_listing,
    content_type_for,
    not_found_if_finished,
    part_record,
    wrong_size,
)


class DiskParts(PartsBackend):
    """Parts in the upload's data file under ``MEDIA_ROOT``; no handle to keep at the start."""

    def __init__(self, store: LocalBlobStore) -> None:
        self.store = store

    def start(self, upload: MultipartUpload) -> None:
        pass  # the data file is made by the first part that arrives

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
        """Write the part into the upload's data file, its old record gone while its bytes change.

        The record is deleted under the upload's lock before the first byte is written, so a
        complete that has not claimed the upload yet finds the part missing (or, later, its new
        etag), and one that has finished makes this UPLOAD_NOT_FOUND before anything is written.
        """
        upload_id = upload.pk
        with assembly.part_slot(self.store, upload_id, part_number):
            with transaction.atomic():
                upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
                UploadPart.objects.filter(upload=upload, part_number=part_number).delete()
            offset = (part_number - 1) * upload.part_size
            written = assembly.part_write(
                self.store, body, upload_id=upload_id, offset=offset, expected_size=expected
            )
            if written.size != expected:
                raise wrong_size(part_number, expected, written.size)
            try:
                with transaction.atomic():
                    upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
                    return part_record(upload, part_number, written, "", now)
            except errors.UploadNotFound:
                # Aborted or expired while the part was arriving: its sweep may have run
                # already, and writing recreated the data file, so nothing else would remove it.
                self.bytes_delete(upload_id)
                raise

    def complete(
        self,
        *,
        org: Organisation,
        upload: MultipartUpload,
        parts: Sequence[tuple[int, str]],
        now: datetime,
    ) -> File:
        """Hash the data file and describe it, then claim the upload and move the file in.

        When the quota is full the upload stays open with its parts, so the caller can free
        space and complete again.
        """
        upload_id = upload.pk
        try:
            assembled = assembly.assemble(self.store, upload_id)
        except FileNotFoundError:
            not_found_if_finished(org=org, upload_id=upload_id, now=now)
            raise errors.InvalidParameters(
                parts="The bytes of a part are missing; upload it again."
            ) from None
        # On failure the data file stays, so that the client can complete again.
        content_type = content_type_for(assembled.head, upload)
        metadata: dict[str, Any] = {}
        if category_of(content_type) == Category.IMAGE:
            with open(assembled.path, "rb") as stream:
                metadata.update(image_metadata(stream))
        return self._claim(
            org=org,
            upload_id=upload_id,
            parts=parts,
            assembled=assembled,
            content_type=content_type,
            metadata=metadata,
            now=now,
        )

    def _claim(
        self,
        *,
        org: Organisation,
        upload_id: str,
        parts: Sequence[tuple[int, str]],
        assembled: assembly.Assembled,
        content_type: str,
        metadata: dict[str, Any],
        now: datetime,
    ) -> File:
        """Under the upload's lock: check again, register the file, move the bytes into place."""
        published = ""
        try:
            with transaction.atomic():
                # The organisation row first, like every other writer, so no two deadlock.
                Organisation.objects.select_for_update().filter(pk=org.pk).first()
                upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
                # The listed etags must still be the stored ones: a part replaced while the
                # parts were being joined has a new stored etag (parts swap in under this lock).
                check_listing(upload, parts, stored_etags(upload))
                if assembled.size != upload.size:
                    raise errors.InvalidParameters(
                        parts="A part was replaced while the upload was completing; "
                        "list the parts with their current etags and complete again."
                    )
                file = file_register(
                    org=org,
                    folder=Folder.objects.for_org(org)
                    .select_for_update()
                    .get_live_or_root(upload.folder_id),
                    name=upload.name,
                    size=upload.size,
                    content_type=content_type,
                    storage_name=upload.storage_name,
                    sha256=assembled.sha256,
                    metadata=metadata,
                    now=now,
                    file_id=upload.reserved_file_id,
                )
                assembly.publish(self.store, assembled, name=upload.storage_name)
                published = upload.storage_name
                upload.file, upload.completed_at = file, now
                upload.save(update_fields=["file", "completed_at"])
                transaction.on_commit(partial(self.discard, upload.pk), robust=True)
        except BaseException:
            if published:  # the row never committed, so neither may the bytes stay
                self.store.delete(published)
            raise
        return file

    def bytes_delete(self, upload_id: str) -> None:
        assembly.parts_delete(self.store, upload_id)
