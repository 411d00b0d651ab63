"""Opaque ids with a readable type prefix: ``org_...``, ``key_...``."""

from __future__ import annotations

from shared.ids import new_id


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
