"""API key secrets: generation, checksum, keyed hashing and display prefix.

A secret looks like ``ak_`` + 32 random base62 characters + a 6-character checksum. The checksum
lets a service refuse a mistyped or truncated key without touching the database.

Only ``secret_hash(secret, pepper)`` is ever stored. The secret carries about 190 bits of
randomness, so a per-key salt adds nothing: no dictionary or rainbow table covers that space. A
keyed HMAC-SHA-256 under a server-side pepper (never stored in the database) means a leaked key
table alone cannot even confirm a guess. The hash is deterministic, so lookups are one indexed
equality query.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
import zlib

ALPHABET = string.digits + string.ascii_letters
BODY_LENGTH = 32
CHECKSUM_LENGTH = 6
DISPLAY_PREFIX_LENGTH = 7


def _base62(number: int, width: int) -> str:
    chars = []
    for _ in range(width):
        number, digit = divmod(number, 62)
        chars.append(ALPHABET[digit])
    return "".join(reversed(chars))


def _checksum(body: str) -> str:
    return _base62(zlib.crc32(body.encode("ascii")), CHECKSUM_LENGTH)


def generate(prefix: str) -> str:
    """Return a new secret such as ``ak_<32 random base62 chars><6 char checksum>``."""
    body = "".join(secrets.choice(ALPHABET) for _ in range(BODY_LENGTH))
    return f"{prefix}{body}{_checksum(body)}"


def is_well_formed(secret: str, prefix: str) -> bool:
    """Tell whether ``secret`` has the right prefix, length, alphabet and checksum."""
    if not isinstance(secret, str) or not secret.startswith(prefix):
        return False
    rest = secret[len(prefix) :]
    if len(rest) != BODY_LENGTH + CHECKSUM_LENGTH or any(c not in ALPHABET for c in rest):
        return False
    body, checksum = rest[:BODY_LENGTH], rest[BODY_LENGTH:]
    return hmac.compare_digest(_checksum(body), checksum)


def secret_hash(secret: str, pepper: str) -> str:
    """Return the hex HMAC-SHA-256 of ``secret`` under ``pepper``: the only form ever stored."""
    return hmac.new(pepper.encode(), secret.encode(), hashlib.sha256).hexdigest()


def verify(secret: str, stored_hash: str, pepper: str) -> bool:
    """Compare ``secret`` with a stored hash in constant time."""
    return hmac.compare_digest(secret_hash(secret, pepper), stored_hash)


def display_prefix(secret: str, length: int = DISPLAY_PREFIX_LENGTH) -> str:
    """Return the first characters of ``secret``, safe to show and store for identification."""
    return secret[:length]
