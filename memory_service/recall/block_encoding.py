"""How posting blocks are encoded: document numbers, the chunk a number falls in, and bytes.

A posting is a document number: a 63-bit integer that orders like the memory id it stands for,
so that recall keys its scores by number and breaks ties by number alone. The first ten
characters of a random id (about 60 bits) make a number that does; two memories of one
organisation whose ids share those (about one chance in 10^8 at 100,000 memories) cannot share a
number, so the one indexed later takes the next free number above, and between those two alone a
tie is broken by indexing order. A block holds its postings as signed 64-bit little-endian
integers, in no particular order.
"""

from __future__ import annotations

import bisect
import string
import sys
from array import array

# The characters of generated ids, in the order Python compares them.
_ALPHABET = "".join(sorted(string.digits + string.ascii_letters))
# 0 stands for "the id has ended", which sorts before any character.
_BASE = len(_ALPHABET) + 1
_DIGITS = 10
_RANGE = _BASE**_DIGITS  # below 2**63
_ID_PREFIX = "mem_"
# Bytes per posting in a block.
POSTING_SIZE = 8
# Blocks per (term, length, tf): enough that inserting a memory rewrites only a few kilobytes
# of each common term's block at 100,000 memories, few enough that recall reads few rows.
CHUNKS = 16


def document_number(memory_id: str) -> int:
    """Return the document number of ``memory_id``: a larger id never gets a smaller number."""
    if not memory_id.startswith(_ID_PREFIX):  # not an id this service made; still in order
        return 0 if memory_id < _ID_PREFIX else _RANGE - 1
    tail = memory_id.removeprefix(_ID_PREFIX)
    number = 0
    for position in range(_DIGITS):
        if position >= len(tail):
            digit = 0
        elif (rank := bisect.bisect_left(_ALPHABET, tail[position])) < len(_ALPHABET) and (
            _ALPHABET[rank] == tail[position]
        ):
            digit = rank + 1
        else:
            # A character outside the alphabet sorts after every id that has the alphabet's
            # character below it here, whatever follows: that character's digit, then the
            # largest digits. Ids that differ only after it may share a number.
            number = number * _BASE + rank
            return (number + 1) * _BASE ** (_DIGITS - position - 1) - 1
        number = number * _BASE + digit
    return number


def chunk_of(number: int) -> int:
    """Return the block chunk that holds ``number``."""
    return number * CHUNKS // _RANGE


def pack(numbers: list[int]) -> bytes:
    """Return the postings ``numbers`` as the bytes a block stores."""
    packed = array("q", numbers)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def unpack(data: bytes) -> array:
    """Return the postings (document numbers) a block's bytes hold."""
    numbers = array("q")
    numbers.frombytes(data)
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers
