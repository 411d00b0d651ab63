"""The upload handler: every file part spills to a temporary file, hashed as it streams."""

from __future__ import annotations

import hashlib

from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler

from storage_service.accounts.authentication import resolve_key
from storage_service.files import blobs


class HashingFileUploadHandler(TemporaryFileUploadHandler):
    """Write chunks to disk, computing SHA-256 on the way and stopping past the plan's size limit.

    Over the limit, the rest of the body is read and dropped (no reset connection, so the client
    gets its FILE_TOO_LARGE answer); ``request.upload_too_large`` tells the view.
    """

    # Django's parser reads the body in the smallest chunk its handlers ask for (64 KiB by
    # default); 1 MiB chunks cut the per-chunk Python work of large uploads several times over.
    chunk_size = 1024 * 1024

    def __init__(self, request=None) -> None:
        super().__init__(request)
        auth = resolve_key(request) if request is not None else None
        self.max_size = auth.org.plan_limits["maxUploadSize"] if auth and auth.org else None
        self.received = 0
        self.digest = hashlib.sha256()

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0
        self.digest = hashlib.sha256()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self.received += len(raw_data)
        if self.max_size is not None and self.received > self.max_size:
            self.request.upload_too_large = True
            self.file.close()
            raise StopUpload(connection_reset=False)
        self.digest.update(raw_data)
        return super().receive_data_chunk(raw_data, start)

    def file_complete(self, file_size: int):
        self.file.flush()
        blobs.sync_file(self.file.fileno())  # durable before it is renamed into place
        uploaded = super().file_complete(file_size)
        if uploaded is not None:
            uploaded.sha256 = self.digest.hexdigest()
        return uploaded
