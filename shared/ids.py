"""Opaque ids with a readable type prefix (``org_...``); each service names its own prefixes."""

from __future__ import annotations

import secrets
import string

_ALPHABET = string.digits + string.ascii_letters


def new_id(prefix: str) -> str:
    """Return ``prefix_`` followed by 20 random base62 characters (about 119 bits)."""
    return f"{prefix}_" + "".join(secrets.choice(_ALPHABET) for _ in range(20))
