"""Log lines that hold a secret: a run's logs are read for them (``make fuzz``, the scale-out
check). Beside the secrets a run knows it used, any API key (``ak_``/``mk_`` and 32 or more
characters) and any signed value (``payload:timestamp:signature``, the signature 43 base64url
characters: a download link's token) left whole in a line counts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

_SHAPES = re.compile(
    r"\b(?:ak|mk)_[A-Za-z0-9_-]{32,}"
    r"|[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"
)


def leaked_lines(logs: Iterable[Path], secrets: Iterable[str] = ()) -> list[str]:
    """The lines of ``logs`` holding one of ``secrets`` or anything shaped like a secret."""
    known = [secret for secret in secrets if secret]
    found = []
    for log in logs:
        text = log.read_text(errors="replace") if log.exists() else ""
        found += [
            line
            for line in text.splitlines()
            if _SHAPES.search(line) or any(secret in line for secret in known)
        ]
    return found
