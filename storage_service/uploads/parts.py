"""Where an upload's parts go: the interface of the two ways, and the checks they share.

The blob store decides the way (``services.parts_backend``): on this disk the parts are written
in place into one data file that completing hashes and moves into place (``on_disk``); on an
object store they go up as the store's own multipart upload, which completing asks the store to
join (``object_store``). The two differ in more than their bytes: joining on the disk can be
undone until the file's row commits, so it happens under the upload's lock with the row; the
store's join cannot, so the upload is finished first and the file described after.
"""

from __future__ import annotations

import abc
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from itertools import pairwise
from typing import Any

from django.db import transaction
from django.db.models import Count, Sum

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from storage_service.files.sniffing import content_type_of
from storage_service.uploads.assembly import Readable, StagedPart
from storage_service.uploads.lookups import open_upload
from storage_service.uploads.models import MultipartUpload, UploadPart

# Enough of an object's start to sniff it and read an image header without fetching it all.
IMAGE_HEAD_SIZE = 64 * 1024
# What the content shows when it shows nothing in particular: a declared type beats these.
GENERIC_TYPES = {"application/octet-stream", "text/plain"}


class PartsBackend(abc.ABC):
    """Start an upload, store a part, complete it, discard its parts: one way of doing each."""

    @abc.abstractmethod
    def start(self, upload: MultipartUpload) -> None:
        """Prepare where the new upload's parts go."""

    @abc.abstractmethod
    def part_store(
        self,
        *,
        org: Organisation,
        upload: MultipartUpload,
        part_number: int,
        body: Readable,
        expected: int,
        now: datetime,
    ) -> UploadPart:
        """Store one part of exactly ``expected`` bytes, replacing one sent before."""

    @abc.abstractmethod
    def complete(
        self,
        *,
        org: Organisation,
        upload: MultipartUpload,
        parts: Sequence[tuple[int, str]],
        now: datetime,
    ) -> File:
        """Join the parts (already checked once against ``parts``) into the file and record it."""

    @abc.abstractmethod
    def bytes_delete(self, upload_id: str) -> None:
        """Delete the bytes of an upload's parts; ones already gone are fine."""

    def discard(self, upload_id: str) -> dict[str, Any]:
        """Delete an upload's parts: bytes first, so a crash between leaves rows to retry with."""
        rows = UploadPart.objects.filter(upload_id=upload_id)
        removed = rows.aggregate(count=Count("pk"), size=Sum("size"))
        self.bytes_delete(upload_id)
        rows.delete()
        return removed


def part_record(
    upload: MultipartUpload,
    part_number: int,
    received: StagedPart,
    backend_etag: str,
    now: datetime,
) -> UploadPart:
    part, _ = UploadPart.objects.update_or_create(
        upload=upload,
        part_number=part_number,
        defaults={
            "size": received.size,
            "etag": received.etag,
            "backend_etag": backend_etag,
            "created_at": now,
        },
    )
    return part


def wrong_size(part_number: int, expected: int, got: int | None) -> errors.InvalidParameters:
    received = "no Content-Length" if got is None else f"{got} bytes"
    return errors.InvalidParameters(
        f"Part {part_number} must be exactly {expected} bytes.",
        size=f"Expected {expected} bytes, got {received}.",
        expectedSize=expected,
        receivedSize=got,
    )


def not_found_if_finished(*, org: Organisation, upload_id: str, now: datetime) -> None:
    """Wait out a racing complete (its locks, in its order); UPLOAD_NOT_FOUND if it finished."""
    # A parts check that fails may have read the winner's half-done clean-up: what decides is
    # whether the upload is still open once the winner has committed.
    with transaction.atomic():
        Organisation.objects.select_for_update().filter(pk=org.pk).first()
        open_upload(org=org, upload_id=upload_id, now=now, lock=True)


def check_listing(
    upload: MultipartUpload, listed: Sequence[tuple[int, str]], stored: dict[int, str]
) -> None:
    """Refuse a parts list that is not exactly 1..partCount, ascending, with the stored etags."""
    count = upload.part_count
    numbers = [number for number, _ in listed]
    outside = [n for n in numbers if not 1 <= n <= count]
    repeated = sorted(n for n, times in Counter(numbers).items() if times > 1)
    misordered = [b for a, b in pairwise(numbers) if b < a]
    missing = sorted(set(range(1, count + 1)) - set(numbers))
    not_uploaded = [n for n in numbers if n not in stored]
    mismatched = [n for n, etag in listed if n in stored and etag != stored[n]]
    for offending, reason in [
        (outside, f"Part numbers run from 1 to {count}; these do not:"),
        (repeated, "Each part must be listed once; listed more than once:"),
        (misordered, "Parts must be listed in ascending order; out of order:"),
        (missing, "Every part must be listed; missing:"),
        (not_uploaded, "These parts have not been uploaded:"),
        (mismatched, "The etag does not match the uploaded part for:"),
    ]:
        if offending:
            shown = ", ".join(str(n) for n in offending[:20])
            more = f" and {len(offending) - 20} more" if len(offending) > 20 else ""
            problem = f"{reason} {shown}{more}."
            raise errors.InvalidParameters(problem, parts=problem, partNumbers=offending[:20])


def content_type_for(head: bytes, upload: MultipartUpload) -> str:
    """The type the content shows, else the declared one, else the name's."""
    content_type = content_type_of(head, "")
    if content_type in GENERIC_TYPES:
        content_type = upload.content_type or content_type_of(head, upload.name)
    return content_type
