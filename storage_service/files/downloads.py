"""Serving a file's bytes: signed links, streaming, safe Content-Disposition and HTTP ranges."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO
from urllib.parse import quote

from django.conf import settings
from django.core import signing
from django.http import (
    FileResponse,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.utils.http import content_disposition_header, http_date, parse_http_date_safe
from django.views.decorators.csrf import csrf_exempt

from storage_service import errors
from storage_service.api import error_response
from storage_service.billing import notes
from storage_service.files.blobs import CHUNK_SIZE, blob_store
from storage_service.files.models import File
from storage_service.files.serializers import DOWNLOAD_SALT

RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
# The object store's own link only has to outlive the redirect.
REDIRECT_TTL = 300


def file_for_token(token: str) -> File:
    """Return the live file a signed link names, or raise ACCESS_DENIED / FILE_NOT_FOUND."""
    try:
        org_id, file_id = signing.loads(
            token, salt=DOWNLOAD_SALT, max_age=settings.DOWNLOAD_URL_TTL
        )
    except (signing.BadSignature, ValueError, TypeError) as exc:
        raise errors.AccessDenied("The download link is invalid or has expired.") from exc
    file = File.objects.live().filter(organisation_id=org_id, pk=file_id).first()
    if file is None:
        raise errors.FileNotFound(fileId=file_id)
    return file


def byte_range(header: str, size: int) -> tuple[int, int] | None:
    """Parse a single ``bytes=a-b`` range into inclusive offsets; None means the whole file.

    Raises ValueError for a range that cannot be satisfied. Multiple ranges are answered whole.
    """
    match = RANGE.match(header.strip()) if header else None
    if match is None:
        return None
    first, last = match.groups()
    if not first and not last:
        return None
    if not first:  # the last N bytes
        length = int(last)
        if length == 0:
            raise ValueError("empty suffix range")
        return max(0, size - length), size - 1
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or end < start:
        raise ValueError("range outside the file")
    return start, end


def entity_tag(file: File) -> str:
    """A strong validator: the content's SHA-256 (a file's bytes never change after upload)."""
    return f'"{file.sha256}"' if file.sha256 else f'"{file.pk}"'


def _opaque(tag: str) -> str:
    return tag.strip().removeprefix("W/")


def none_match(request: HttpRequest, file: File) -> bool:
    """Whether ``If-None-Match`` names the file's current tag (weak comparison, RFC 9110 13.1.2)."""
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    return _opaque(entity_tag(file)) in {_opaque(tag) for tag in header.split(",")}


def range_applies(request: HttpRequest, file: File) -> bool:
    """Whether the Range header is to be honoured: ``If-Range`` must still name this content.

    RFC 9110 13.1.5: an entity tag compares strongly; a date must equal Last-Modified. A stale
    ``If-Range`` means the client's partial copy is of something else: it gets the whole file.
    """
    header = request.META.get("HTTP_IF_RANGE", "").strip()
    if not header:
        return True
    if header.startswith(('"', "W/")):
        return not header.startswith("W/") and header == entity_tag(file)
    return parse_http_date_safe(header) == int(file.uploaded_at.timestamp())


def wanted_range(request: HttpRequest, file: File) -> tuple[int, int] | None:
    """The inclusive byte range to send, None for the whole file; ValueError if unsatisfiable."""
    if not range_applies(request, file):
        return None
    return byte_range(request.META.get("HTTP_RANGE", ""), file.size)


def _length(file: File, wanted: tuple[int, int] | None) -> int:
    return file.size if wanted is None else wanted[1] - wanted[0] + 1


def _asked(request: HttpRequest, file: File) -> int:
    """The bytes a request asks for: its range's, or the whole file's."""
    try:
        wanted = wanted_range(request, file)
    except ValueError:
        return 0
    return _length(file, wanted)


def _validators(response: HttpResponseBase, file: File) -> HttpResponseBase:
    response["ETag"] = entity_tag(file)
    response["Last-Modified"] = http_date(file.uploaded_at.timestamp())
    response["Cache-Control"] = "private, max-age=0"
    return response


def _slice(stream: IO[bytes], start: int, length: int) -> Iterator[bytes]:
    try:
        stream.seek(start)
        while length > 0:
            chunk = stream.read(min(CHUNK_SIZE, length))
            if not chunk:
                break
            length -= len(chunk)
            yield chunk
    finally:
        stream.close()


def _streamed(file: File, wanted: tuple[int, int] | None) -> StreamingHttpResponse:
    """The file whole (200) or the range (206), read from disk in chunks."""
    stream = blob_store().open(file.storage_name)
    response: StreamingHttpResponse
    if wanted is None:
        response = FileResponse(stream, content_type=file.content_type)
        response["Content-Length"] = str(file.size)
    else:
        start, end = wanted
        length = end - start + 1
        response = StreamingHttpResponse(
            _slice(stream, start, length), status=206, content_type=file.content_type
        )
        response["Content-Length"] = str(length)
        response["Content-Range"] = f"bytes {start}-{end}/{file.size}"
    response["Accept-Ranges"] = "bytes"
    return response


def _handed_to_nginx(
    request: HttpRequest, file: File, wanted: tuple[int, int] | None
) -> HttpResponse:
    """The headers alone, with ``X-Accel-Redirect``: nginx sends the bytes from disk.

    Always 200: nginx applies the request's Range itself, and its If-Range against the ETag and
    Last-Modified answered here (deploy/storage/nginx.conf copies them). nginx announces
    Accept-Ranges itself (a second one would be sent twice) and sets the Content-Length of what it
    sends; the one here is the empty body's, so a client that reached gunicorn directly is not
    left waiting. The bytes asked for are counted, as for the object store's redirect: nothing
    here sees what nginx actually sent.
    """
    if request.method == "GET":
        notes.note_download(org_id=file.organisation_id, size=_length(file, wanted))
    response = HttpResponse(content_type=file.content_type)
    response["X-Accel-Redirect"] = settings.DOWNLOAD_ACCEL_REDIRECT_PREFIX + quote(
        file.storage_name
    )
    return response


def file_response(request: HttpRequest, file: File) -> HttpResponseBase:
    """Stream ``file`` whole (200) or the requested range (206), never reading it all at once.

    When the blob store has a URL of its own (an object store's short-lived pre-signed one),
    redirect to it: the store serves the bytes (ranges included) with the same type and
    disposition, and they never pass through a worker.
    Behind nginx (``DOWNLOAD_ACCEL_REDIRECT_PREFIX``) the worker answers the headers and nginx
    sends the bytes from the local disk.
    """
    if none_match(request, file):
        return _validators(HttpResponse(status=304), file)  # the client's copy is current
    disposition = content_disposition_header(True, file.name)
    assert disposition is not None  # an attachment always has one
    url = blob_store().download_url(
        file.storage_name,
        content_type=file.content_type,
        disposition=disposition,
        expire=REDIRECT_TTL,
    )
    if url is not None:
        if request.method == "GET":
            notes.note_download(org_id=file.organisation_id, size=_asked(request, file))
        return HttpResponseRedirect(url)
    try:
        wanted = wanted_range(request, file)
    except ValueError:
        error = errors.RangeNotSatisfiable(
            range=request.META.get("HTTP_RANGE", "")[:100], size=file.size
        )
        response = _validators(error_response(error), file)
        response["Content-Range"] = f"bytes */{file.size}"
        return response
    if settings.DOWNLOAD_ACCEL_REDIRECT_PREFIX:
        response = _handed_to_nginx(request, file, wanted)
    else:
        response = _streamed(file, wanted)
    response["Content-Disposition"] = disposition
    response["X-Content-Type-Options"] = "nosniff"
    return _validators(response, file)


# The link is the credential: no cookie or CSRF token applies, and another method is answered
# 405 in the envelope below rather than by the CSRF check's HTML page.
@csrf_exempt
def download(request: HttpRequest, token: str) -> HttpResponseBase:
    """GET /v1/downloads/<token>: the link itself is the credential (it expires)."""
    if request.method not in {"GET", "HEAD"}:
        error = errors.MethodNotAllowed()
        response = error_response(error)
        response["Allow"] = "GET, HEAD"
        return response
    try:
        file = file_for_token(token)
        notes.note_download(org_id=file.organisation_id)
        return file_response(request, file)
    except errors.ApiError as error:
        return error_response(error)


download.allowed_methods = ("GET", "HEAD")  # type: ignore[attr-defined]
