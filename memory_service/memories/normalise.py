"""The normalised form of a statement, which decides when two wordings are the same memory."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_NOT_WORD = re.compile(r"[^\w\s]+")
_SPACE = re.compile(r"\s+")
# Words that open a correction or a request without changing what is stated: "Actually, please
# call me Sam" restates "Please call me Sam".
_OPENERS = ("actually", "also", "oh", "ok", "okay", "so", "and", "btw", "fyi", "just", "yes")


def normalise(text: str) -> str:
    """Lower-case ``text``, drop punctuation and leading openers, collapse whitespace."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("'", "").replace("\u2019", "")
    words = _SPACE.sub(" ", _NOT_WORD.sub(" ", text)).strip().split(" ")
    while len(words) > 1 and words[0] in _OPENERS:
        words.pop(0)
    return " ".join(words)


def fingerprint(text: str) -> str:
    """Return the SHA-256 hex digest of the normalised ``text``."""
    return hashlib.sha256(normalise(text).encode()).hexdigest()
