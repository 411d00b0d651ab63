"""``UNCHANGED``: what a service reads for a field a PATCH left out, where None is a value."""

from __future__ import annotations

from enum import Enum


class Unchanged(Enum):
    # A one-member enum rather than ``object()``, so that type checkers can narrow it away.
    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED
