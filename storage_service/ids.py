"""Opaque ids with a readable type prefix: ``org_...``, ``key_...``, ``file_...``."""

from __future__ import annotations

import secrets
import string

_ALPHABET = string.digits + string.ascii_letters


def new_id(prefix: str) -> str:
    """Return ``prefix_`` followed by 20 random base62 characters (about 119 bits)."""
    return f"{prefix}_" + "".join(secrets.choice(_ALPHABET) for _ in range(20))


# Module-level defaults, because migrations can only serialise importable callables.
def new_org_id() -> str:
    return new_id("org")


def new_key_id() -> str:
    return new_id("key")


def new_file_id() -> str:
    return new_id("file")


def new_folder_id() -> str:
    return new_id("fld")


def new_upload_id() -> str:
    return new_id("upl")
