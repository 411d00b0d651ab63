"""What a file is: its MIME type from its first bytes (the name's extension as a fallback), its
category, and for images their width and height."""

from __future__ import annotations

import mimetypes
import re
from typing import IO

import filetype
from PIL import Image, UnidentifiedImageError

from storage_service.files.models import Category

HEAD_SIZE = 8192
# RFC 6838's restricted names, lower case: what an upload may declare and a list may filter on.
MIME_TYPE = re.compile(r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}")
DOCUMENT_TYPES = {
    "application/pdf",
    "application/msword",
    "application/rtf",
    "application/json",
    "application/xml",
    "application/epub+zip",
    "application/vnd.oasis.opendocument.text",
    "application/vnd.oasis.opendocument.spreadsheet",
    "application/vnd.oasis.opendocument.presentation",
    "application/vnd.ms-excel",
    "application/vnd.ms-powerpoint",
}


def content_type_of(head: bytes, name: str) -> str:
    """Return the MIME type the bytes show, else the one the name suggests, else a safe default."""
    kind = filetype.guess(head) if head else None
    if kind is not None:
        return kind.mime
    guessed, _ = mimetypes.guess_type(name, strict=False)
    if guessed:
        return guessed
    return "text/plain" if _looks_like_text(head) else "application/octet-stream"


def _looks_like_text(head: bytes) -> bool:
    if not head or b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        # A multi-byte character cut at the end of the sample is still text.
        return error.start >= len(head) - 3
    return True


def category_of(content_type: str) -> str:
    major = content_type.split("/", 1)[0]
    if major in {"image", "video", "audio"}:
        return major
    if (
        major == "text"
        or content_type in DOCUMENT_TYPES
        or content_type.startswith("application/vnd.openxmlformats-officedocument")
    ):
        return Category.DOCUMENT
    return Category.OTHER


def image_metadata(stream: IO[bytes]) -> dict[str, int]:
    """Return ``{"width", "height"}`` read from the image header, or {} when it is not an image."""
    try:
        with Image.open(stream) as image:  # reads the header only, not the pixels
            width, height = image.size
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return {}
    return {"width": int(width), "height": int(height)}


def mime_essence(value: str) -> str | None:
    """Return ``type/subtype`` of a MIME type in lower case, parameters dropped; None if not one."""
    essence = value.split(";", 1)[0].strip().lower()
    return essence if MIME_TYPE.fullmatch(essence) else None
