"""The one rule for the characters of a name, for files, folders and API keys alike.

A name is a label people read in listings, so it may not hold what changes how it displays or
where it ends: control characters, line and paragraph separators, lone surrogates (which no
database or JSON answer can hold), and the bidirectional embeddings, overrides and isolates
(U+202A-U+202E, U+2066-U+2069), with which ``invoice\\u202efdp.exe`` reads "invoiceexe.pdf".
Every other character is kept as sent: spaces of every kind (macOS names screenshots with a
narrow no-break space), joiners inside emoji, marks of right-to-left scripts.
"""

from __future__ import annotations

import unicodedata

FORBIDDEN_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def forbidden_character(name: str) -> str | None:
    """Say why ``name`` cannot be a name because of one of its characters, or None."""
    for char in name:
        if char in BIDI_CONTROLS or unicodedata.category(char) in FORBIDDEN_CATEGORIES:
            return (
                "The name must not contain control characters, line breaks or text direction "
                f"overrides (found U+{ord(char):04X})."
            )
    return None
