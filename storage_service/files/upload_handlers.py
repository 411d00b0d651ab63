"""The upload handler: the file part spills to a temporary file, hashed as it streams."""

from __future__ import annotations

import contextlib
from typing import NoReturn

from django.core.files.uploadhandler import StopUpload, TemporaryFileUploadHandler
from django.http import HttpRequest, QueryDict
from django.utils.datastructures import MultiValueDict
from rest_framework.request import Request

from storage_service import errors
from storage_service.accounts.authentication import resolve_key
from storage_service.files import quota
from storage_service.files.blobs.local import sync_file
from storage_service.files.hashing import StreamDigest


class HashingFileUploadHandler(TemporaryFileUploadHandler):
    """Write chunks to disk, computing SHA-256 on the way; stop at the first reason to refuse.

    An error raised in here would escape Django's parser with the spill file still open (and
    its space taken until the worker exits), so a refusal is left on the request as
    ``upload_refused`` for the view to raise, and ``StopUpload`` makes the parser close and
    delete the spill file and read the rest of the body (no reset connection, so the client
    gets its answer); ``UploadParser`` raises it once the parser is done. Refusals: a file over
    the plan's size limit (``quota.check_upload_size``), a second file part, a full disk; a body
    whose Content-Length alone says the file cannot fit is refused unread.
    """

    # Django's parser reads the body in the smallest chunk its handlers ask for (64 KiB by
    # default); 1 MiB chunks cut the per-chunk Python work of large uploads several times over.
    chunk_size = 1024 * 1024
    # Room for the multipart framing and the one small field (folderId) beside the file part.
    framing_allowance = 64 * 1024

    def __init__(self, request=None) -> None:
        super().__init__(request)
        auth = resolve_key(request) if request is not None else None
        self.org = auth.org if auth else None
        self.received = 0
        self.file_parts = 0
        self.digest = StreamDigest()

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        try:
            self._check_size(content_length - self.framing_allowance)
        except errors.FileTooLarge as error:
            self._note_refusal(error)
            return QueryDict(), MultiValueDict()  # parsed as empty, without reading the body
        return None

    def new_file(self, *args, **kwargs) -> None:
        self.file_parts += 1
        if self.file_parts > 1:
            self._refuse(errors.InvalidParameters(file="Send exactly one file part per upload."))
        self.received = 0
        self.digest = StreamDigest()
        try:
            super().new_file(*args, **kwargs)
        except OSError as exc:
            self._refuse_os_error(exc)

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        try:
            self._check_size(self.received)
        except errors.FileTooLarge as error:
            self._refuse(error)
        self.digest.update(raw_data)
        try:
            return super().receive_data_chunk(raw_data, start)
        except OSError as exc:
            self._refuse_os_error(exc)

    def file_complete(self, file_size: int):
        try:
            self.file.flush()
            sync_file(self.file.fileno())  # durable before it is renamed into place
        except OSError as exc:
            self._refuse_os_error(exc)
        uploaded = super().file_complete(file_size)
        if uploaded is not None:
            uploaded.sha256 = self.digest.hexdigest()  # type: ignore[attr-defined]
        return uploaded

    def _check_size(self, at_least: int) -> None:
        if self.org is not None:  # no key: authentication refuses the request after parsing
            quota.check_upload_size(org=self.org, size=at_least, whole=False)

    def _refuse(self, error: errors.ApiError) -> NoReturn:
        self._note_refusal(error)
        raise StopUpload(connection_reset=False)

    def _note_refusal(self, error: errors.ApiError) -> None:
        assert self.request is not None  # Django's parser always gives its handlers the request
        self.request.upload_refused = error  # type: ignore[attr-defined]

    def _refuse_os_error(self, exc: OSError) -> NoReturn:
        if errors.is_out_of_space(exc):
            self._refuse(errors.StorageFull())
        if hasattr(self, "file"):  # any other failure still removes the spill file
            with contextlib.suppress(OSError):
                self.file.close()
        raise exc


def raise_refusal(request: HttpRequest | Request) -> None:
    """Raise what the handler refused while the body was parsed, if anything (a DRF request
    reads the attribute from the Django request it wraps)."""
    refused = getattr(request, "upload_refused", None)
    if refused is not None:
        raise refused
