"""Completing a multipart upload: check the parts list, then join the parts and record the file.

The checks here are the same for every blob store; joining is the store's way
(``services.parts_backend``): on the local disk the parts already sit in the upload's data file,
so completing hashes it and moves it into place; on an object store the store joins the parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.uploads.lookups import open_upload, stored_etags
from storage_service.uploads.parts import check_listing, not_found_if_finished
from storage_service.uploads.services import parts_backend


def upload_complete(
    *, org: Organisation, upload_id: str, parts: Sequence[tuple[int, str]], now: datetime
) -> File:
    """Join the listed parts into the file and record it, counting it against the quota.

    ``parts`` is ``(partNumber, etag)`` for every part, ascending. On the local disk, when the
    quota is full the upload stays open with its parts, so the caller can free space and
    complete again.
    """
    upload = open_upload(org=org, upload_id=upload_id, now=now)
    try:
        check_listing(upload, parts, stored_etags(upload))
    except errors.InvalidParameters:
        not_found_if_finished(org=org, upload_id=upload_id, now=now)
        raise
    Folder.objects.for_org(org).get_live_or_root(upload.folder_id)
    quota.check_room(org=org, size=upload.size)  # early: joining a large file takes a while
    return parts_backend().complete(org=org, upload=upload, parts=parts, now=now)
