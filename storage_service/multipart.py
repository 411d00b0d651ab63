"""Reading a multipart/form-data body at the disk's pace: python-multipart finds the parts,
Django's upload handlers store them.

Django's own parser copies every chunk of a file several times on its way to the handlers
(``LazyStream`` puts back what follows a possible boundary, joins and slices), about half the
CPU time of a large upload. python-multipart (Starlette's parser) scans each chunk once and
hands over a slice. What Django's parser promises its handlers and its callers is kept: the
same handler calls in the same order, the same limits (``DATA_UPLOAD_MAX_MEMORY_SIZE``,
``DATA_UPLOAD_MAX_NUMBER_FIELDS``, ``DATA_UPLOAD_MAX_NUMBER_FILES``), the same reading of
each part's headers (Django's own, RFC 2231 ``filename*`` included), ``StopUpload``,
``SkipFile`` and ``StopFutureHandlers``.

Two differences, both refusals of bodies no form sends: a body that ends before its closing
boundary is an error, and a part with a ``Content-Transfer-Encoding`` other than 7bit, 8bit,
binary or base64 is refused (RFC 7578 deprecates the header; Django stored quoted-printable
text as it came). Base64 is decoded as it streams, as Django decodes it.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import IO, Any

import python_multipart
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.files.uploadhandler import (
    FileUploadHandler,
    SkipFile,
    StopFutureHandlers,
    StopUpload,
)
from django.http import QueryDict

# MAX_TOTAL_HEADER_SIZE, exhaust and parse_boundary_stream are the parser's own helpers, which
# django-stubs leaves out.
from django.http.multipartparser import (  # type: ignore[attr-defined]
    FIELD,
    FIELD_TYPES,
    MAX_TOTAL_HEADER_SIZE,
    ChunkIter,
    LazyStream,
    MultiPartParser,
    MultiPartParserError,
    exhaust,
    parse_boundary_stream,
)
from django.utils.datastructures import MultiValueDict
from django.utils.encoding import force_str

PLAIN_ENCODINGS = frozenset({"7bit", "8bit", "binary"})
BASE64 = "base64"


class StreamingMultiPartParser(MultiPartParser):
    """Django's ``MultiPartParser`` (its checks of the request, its ``parse`` contract) reading
    the body with python-multipart."""

    # Set by MultiPartParser (django-stubs declares its public methods only).
    _boundary: bytes
    _chunk_size: int
    _content_length: int
    _encoding: str
    _input_data: IO[bytes]
    _meta: dict[str, Any]
    _upload_handlers: list[FileUploadHandler]
    _post: QueryDict
    _files: MultiValueDict
    _close_files: Callable[[], None]

    def _parse(self) -> tuple[QueryDict, MultiValueDict]:
        if self._content_length == 0:
            return QueryDict(encoding=self._encoding), MultiValueDict()
        for handler in self._upload_handlers:
            result = handler.handle_raw_input(
                self._input_data,
                self._meta,
                self._content_length,
                self._boundary,  # type: ignore[arg-type]  # bytes, as Django passes it
                self._encoding,
            )
            if result is not None:
                return result[0], result[1]
        self._post = QueryDict(mutable=True)
        self._files = MultiValueDict()
        try:
            _Body(self).read(ChunkIter(self._input_data, self._chunk_size))
            exhaust(self._input_data)  # an epilogue after the closing boundary, as Django reads it
        except StopUpload as stop:
            self._close_files()
            if not stop.connection_reset:
                exhaust(self._input_data)
        except BaseException:
            self._close_files()  # a part half-written when the body broke off leaves no file
            raise
        # As Django's parser: a handler that returns a value stops the rest (the stubs say None).
        handlers = self._upload_handlers
        any(handler.upload_complete() for handler in handlers)  # type: ignore[func-returns-value]
        self._post._mutable = False
        return self._post, self._files


class _Body:
    """The parts of one body, fed chunk by chunk to python-multipart, which calls back."""

    def __init__(self, parser: StreamingMultiPartParser) -> None:
        self.parser = parser
        self.separator = b"--" + parser._boundary
        self.tokenizer = python_multipart.MultipartParser(
            parser._boundary,
            {
                "on_part_begin": self._part_begin,
                "on_header_field": self._header_field,
                "on_header_value": self._header_value,
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished,
                "on_part_data": self._part_data,
                "on_part_end": self._part_end,
                "on_end": self._end,
            },
        )
        self.part: _Ignored | _Field | _File | _Base64 = _Ignored()
        self.header_lines: list[bytes] = []
        self.header_name = bytearray()
        self.header_value = bytearray()
        self.ended = False
        self.fields = 0
        self.files = 0
        self.field_bytes = 0

    def read(self, chunks: ChunkIter) -> None:
        first = True
        for chunk in chunks:
            if first:
                chunk = self._without_preamble(chunk)
                first = False
            try:
                self.tokenizer.write(chunk)
            except python_multipart.exceptions.MultipartParseError as exc:
                raise MultiPartParserError(str(exc)) from None
            if self.ended:
                break
        if not self.ended:
            raise MultiPartParserError("The body ended before its closing boundary.")

    def _without_preamble(self, chunk: bytes) -> bytes:
        """Skip text before the first boundary (RFC 2046 allows it; python-multipart does not)."""
        if chunk.startswith(self.separator):
            return chunk
        start = chunk.find(b"\r\n" + self.separator)
        return chunk if start == -1 else chunk[start + 2 :]

    # python-multipart's callbacks, in the order it calls them for each part.

    def _part_begin(self) -> None:
        self.header_lines = []

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self.header_name += data[start:end]
        self._check_header_size()

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self.header_value += data[start:end]
        self._check_header_size()

    def _header_end(self) -> None:
        self.header_lines.append(bytes(self.header_name) + b": " + bytes(self.header_value))
        self.header_name.clear()
        self.header_value.clear()

    def _check_header_size(self) -> None:
        size = sum(map(len, self.header_lines)) + len(self.header_name) + len(self.header_value)
        if size > MAX_TOTAL_HEADER_SIZE:
            raise MultiPartParserError("Request max total header size exceeded.")

    def _headers_finished(self) -> None:
        # Django's reading of a part's headers, so that names and file names come out the same.
        block = b"\r\n".join(self.header_lines) + b"\r\n\r\n"
        stream = LazyStream(iter([block]))  # type: ignore[arg-type]  # any iterator of bytes
        kind, meta, _ = parse_boundary_stream(stream, MAX_TOTAL_HEADER_SIZE)
        self.part = self._open(kind, meta)

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        self.part.write(data[start:end])

    def _part_end(self) -> None:
        self.part.close()
        self.part = _Ignored()

    def _end(self) -> None:
        self.ended = True

    def _open(self, kind: str, meta: dict) -> _Ignored | _Field | _File | _Base64:
        if kind in FIELD_TYPES and settings.DATA_UPLOAD_MAX_NUMBER_FIELDS is not None:
            self.fields += 1
            if self.fields > settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 2:
                raise TooManyFieldsSent(
                    "The number of GET/POST parameters exceeded "
                    "settings.DATA_UPLOAD_MAX_NUMBER_FIELDS."
                )
        try:
            disposition = meta["content-disposition"][1]
            field_name = disposition["name"].strip()
        except (KeyError, IndexError, AttributeError):
            return _Ignored()
        encoding = meta.get("content-transfer-encoding")
        transfer = encoding[0].strip().lower() if encoding is not None else "binary"
        if transfer not in PLAIN_ENCODINGS and transfer != BASE64:
            raise MultiPartParserError(
                f"Content-Transfer-Encoding {transfer[:20]} is not supported: "
                "send the bytes as they are."
            )
        part = self._part(kind, meta, disposition, field_name)
        return _Base64(part) if transfer == BASE64 and not isinstance(part, _Ignored) else part

    def _part(
        self, kind: str, meta: dict, disposition: dict, field_name: str
    ) -> _Ignored | _Field | _File:
        parser = self.parser
        field_name = force_str(field_name, parser._encoding, errors="replace")
        if kind == FIELD:
            return _Field(self, field_name)
        self.files += 1
        if (
            settings.DATA_UPLOAD_MAX_NUMBER_FILES is not None
            and self.files > settings.DATA_UPLOAD_MAX_NUMBER_FILES
        ):
            raise TooManyFilesSent(
                "The number of files exceeded settings.DATA_UPLOAD_MAX_NUMBER_FILES."
            )
        file_name = disposition.get("filename")
        if file_name:
            file_name = parser.sanitize_file_name(
                force_str(file_name, parser._encoding, errors="replace")
            )
        if not file_name:
            return _Ignored()
        content_type, content_type_extra = meta.get("content-type", ("", {}))
        content_length: int | None
        try:
            content_length = int(meta["content-length"][0])
        except (KeyError, IndexError, TypeError, ValueError):
            content_length = None
        return _File(
            parser,
            field_name=field_name,
            file_name=file_name,
            content_type=content_type.strip(),
            content_length=content_length,
            charset=content_type_extra.get("charset"),
            content_type_extra=content_type_extra,
        )


class _Ignored:
    """A part Django's parser skips: no name, or a file part without a file name."""

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


class _Field:
    """A form field, kept in memory up to ``DATA_UPLOAD_MAX_MEMORY_SIZE`` for the whole body."""

    def __init__(self, body: _Body, name: str) -> None:
        self.body = body
        self.name = name
        self.data = bytearray()
        body.field_bytes += len(name) + 2

    def write(self, data: bytes) -> None:
        self.data += data
        self.body.field_bytes += len(data)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and self.body.field_bytes > limit:
            raise RequestDataTooBig("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.")

    def close(self) -> None:
        parser = self.body.parser
        parser._post.appendlist(
            self.name, force_str(bytes(self.data), parser._encoding, errors="replace")
        )


class _File:
    """A file part, streamed through the upload handlers as Django's parser streams it."""

    def __init__(
        self,
        parser: StreamingMultiPartParser,
        *,
        field_name: str,
        file_name: str,
        content_type: str,
        content_length: int | None,
        charset: str | None,
        content_type_extra: dict,
    ) -> None:
        self.parser = parser
        self.field_name = field_name
        self.handlers = parser._upload_handlers
        self.counters = [0] * len(self.handlers)
        self.skipped = False
        try:
            for handler in self.handlers:
                try:
                    handler.new_file(
                        field_name,
                        file_name,
                        content_type,
                        content_length,
                        charset,
                        content_type_extra,
                    )
                except StopFutureHandlers:
                    break
        except SkipFile:
            self._skip()

    def write(self, chunk: bytes) -> None:
        if self.skipped:
            return
        try:
            for i, handler in enumerate(self.handlers):
                size = len(chunk)
                passed_on = handler.receive_data_chunk(chunk, self.counters[i])
                self.counters[i] += size
                if passed_on is None:
                    break
                chunk = passed_on
        except SkipFile:
            self._skip()

    def close(self) -> None:
        if not self.skipped:
            self.parser.handle_file_complete(self.field_name, self.counters)

    def _skip(self) -> None:
        self.skipped = True
        self.parser._close_files()


class _Base64:
    """A part sent base64-encoded, decoded as it streams into the part it wraps."""

    def __init__(self, part: _Field | _File) -> None:
        self.part = part
        self.rest = b""

    def write(self, data: bytes) -> None:
        data = self.rest + b"".join(data.split())
        aligned = len(data) // 4 * 4
        self.rest = data[aligned:]
        if aligned:
            try:
                decoded = base64.b64decode(data[:aligned])
            except binascii.Error as exc:
                raise MultiPartParserError("Could not decode base64 data.") from exc
            self.part.write(decoded)

    def close(self) -> None:
        if self.rest:
            raise MultiPartParserError("Could not decode base64 data.")
        self.part.close()
