"""How a file is cut into parts: S3's rules (at most 10,000 parts of 5 MiB to 512 MiB)."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.conf import settings

from storage_service import errors

MIB = 1024 * 1024
DEFAULT_PART_SIZE = 8 * MIB
MAX_PART_SIZE = 512 * MIB
MAX_PARTS = 10_000


def min_part_size() -> int:
    return getattr(settings, "MULTIPART_MIN_PART_SIZE", 5 * MIB)


@dataclass(frozen=True)
class PartLayout:
    part_size: int
    part_count: int


def part_layout(*, size: int, part_size: int | None) -> PartLayout:
    """Cut ``size`` bytes into parts of ``part_size`` (the last one holds the rest).

    Without a ``part_size`` the default grows, in whole MiB, until 10,000 parts cover the file.
    A part size below the minimum is allowed only when it covers the whole file.
    """
    key = "partSize"
    if part_size is None:
        key = "size"
        part_size = max(DEFAULT_PART_SIZE, math.ceil(size / MAX_PARTS / MIB) * MIB)
        part_size = min(part_size, MAX_PART_SIZE)
    elif part_size > MAX_PART_SIZE:
        raise errors.InvalidParameters(partSize=f"Must be at most {MAX_PART_SIZE} bytes.")
    elif part_size < min_part_size() and part_size < size:
        raise errors.InvalidParameters(
            partSize=f"Must be at least {min_part_size()} bytes, or cover the whole file."
        )
    part_size = min(part_size, size)
    part_count = math.ceil(size / part_size)
    if part_count > MAX_PARTS:
        raise errors.InvalidParameters(
            **{
                key: f"{part_count} parts of {part_size} bytes is more than {MAX_PARTS}; "
                f"the parts must be at least {math.ceil(size / MAX_PARTS)} bytes."
            }
        )
    return PartLayout(part_size=part_size, part_count=part_count)
