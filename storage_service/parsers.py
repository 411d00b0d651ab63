"""Input this service can read and store (``shared.input_guards``), refused in its own shape,
and the multipart parser of single uploads."""

from __future__ import annotations

import html

from django.conf import settings
from django.http import HttpResponse
from django.http.multipartparser import MultiPartParserError
from rest_framework.exceptions import ParseError
from rest_framework.parsers import DataAndFiles, MultiPartParser

from shared import input_guards
from shared.input_guards import JSONBodyParser
from storage_service import errors
from storage_service.api import error_response
from storage_service.files import upload_handlers
from storage_service.multipart import StreamingMultiPartParser

__all__ = ["JSONBodyParser", "KnownQueryParameters", "PathAndQueryGuard", "UploadParser"]


def _refusal_response(reasons: dict[str, str]) -> HttpResponse:
    return error_response(errors.InvalidParameters(**reasons))


class PathAndQueryGuard(input_guards.PathAndQueryGuard):
    refusal = staticmethod(_refusal_response)


def _refusal_error(reasons: dict[str, str]) -> Exception:
    return errors.InvalidParameters(**reasons)


class KnownQueryParameters(input_guards.KnownQueryParameters):
    refusal = staticmethod(_refusal_error)


class _NamesAsSent(StreamingMultiPartParser):
    """The multipart parser, keeping every character of a file name but the path.

    Django drops the characters it deems non-printable, so a narrow no-break space or an
    emoji's joiner vanished while a right-to-left override went unseen; ``names`` has one rule
    for every name, which the upload applies to the name as the client sent it.
    """

    def sanitize_file_name(self, file_name: str) -> str | None:
        file_name = html.unescape(file_name).rsplit("/")[-1].rsplit("\\")[-1]
        return None if file_name in {"", ".", ".."} else file_name


class UploadParser(MultiPartParser):
    """DRF's multipart parser on ``_NamesAsSent``; a refusal of the upload handler is raised."""

    def parse(self, stream, media_type=None, parser_context=None) -> DataAndFiles:
        request = parser_context["request"]
        meta = {**request.META, "CONTENT_TYPE": media_type}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            parser = _NamesAsSent(meta, stream, request.upload_handlers, encoding)
            parsed = DataAndFiles(*parser.parse())
        except MultiPartParserError as exc:
            raise ParseError(f"Multipart form parse error - {exc}") from exc
        upload_handlers.raise_refusal(request)
        return parsed
