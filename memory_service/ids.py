"""Opaque ids with a readable type prefix: ``org_...``, ``key_...``."""

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


def new_memory_id() -> str:
    return new_id("mem")


def new_turn_id() -> str:
    return new_id("turn")


def new_tension_id() -> str:
    return new_id("tns")
