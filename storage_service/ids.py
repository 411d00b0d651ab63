"""Opaque ids with a readable type prefix: ``org_...``, ``key_...``, ``file_...``."""

from __future__ import annotations

from typing import Any

from shared.ids import new_id

MAX_ID_LENGTH = 64


def is_id(value: Any) -> bool:
    """Whether a client's ``value`` can be looked up as an id. Not every such string is one of
    ours (an unknown id is answered as not found), but a NUL never is: PostgreSQL cannot hold
    one in text, and the query would fail."""
    return isinstance(value, str) and 0 < len(value) <= MAX_ID_LENGTH and "\x00" not in value


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
