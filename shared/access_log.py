"""Gunicorn logging that never writes a signed download link or a credential header.

A storage download link, ``/v1/downloads/<token>``, is a bearer credential good for an hour, and
gunicorn's access log prints the request line whole. ``RedactingLogger`` rewrites every string
atom before formatting, so the request line (``%(r)s``), the path (``%(U)s``), the query string
(``%(q)s``), the referer and any ``{...}e`` environ atom a custom format might name all come out
the same way. Two rules, because a token travels in two shapes:

- whatever follows ``downloads/`` up to the next ``/``, ``?``, ``&`` or ``#`` (also with the
  slashes percent-encoded, as when a link is passed as a query parameter), so a link stays
  recognisable as one: ``/v1/downloads/<redacted>``;
- anything shaped like a Django signed value (``payload:timestamp:signature``, the signature 43
  base64url characters of HMAC-SHA-256), wherever it stands, e.g. ``?token=...``.

Credential headers are dropped from the atoms, so even a custom ``access_log_format`` that names
``%({authorization}i)s`` logs ``-``. The error log gets the same rewriting: gunicorn puts the
request URI and an invalid request line into its messages.

Both logs are JSON lines (``shared.json_logs``): an access line carries the request id the
service put in ``X-Request-Id``, the method, path, query, status, bytes sent and duration. A custom
``access_log_format`` is honoured as gunicorn's own format, with the same redaction.

Both services set ``logger_class = "shared.access_log.RedactingLogger"`` in their gunicorn config.
"""

from __future__ import annotations

import logging
import re
import time
import traceback
from typing import Any

from gunicorn.config import AccessLogFormat
from gunicorn.glogging import Logger

from shared.json_logs import JsonFormatter, log_line

REDACTED = "<redacted>"

_SLASH = r"(?:/|%2F)"
_COLON = r"(?::|%3A)"
_B64 = r"[A-Za-z0-9_-]"
_SECRETS = re.compile(
    # group 1 keeps the route; the token is the run up to the next separator.
    rf"({_SLASH}downloads{_SLASH})(?:(?!%2F)[^/?&#\s\"])+"
    rf"|\.?{_B64}+{_COLON}{_B64}+{_COLON}{_B64}{{43}}(?!{_B64})",
    re.IGNORECASE,
)

# The default format names none of these; a custom one still must not log them.
_CREDENTIAL_ATOMS = frozenset(
    {
        "{authorization}i",
        "{proxy-authorization}i",
        "{cookie}i",
        "{set-cookie}o",
        "{http_authorization}e",
        "{http_proxy_authorization}e",
        "{http_cookie}e",
    }
)


def redact(text: str) -> str:
    """Return ``text`` with download tokens and signed values replaced by ``<redacted>``."""
    return _SECRETS.sub(lambda match: (match.group(1) or "") + REDACTED, text)


class RedactingFilter(logging.Filter):
    """Rewrite a record's formatted message with ``redact`` (its arguments are merged in)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed call: leave it to the handler to report
            return True
        record.msg, record.args = redact(message), None
        return True


class RedactingLogger(Logger):
    """Gunicorn's logger with download tokens and credential headers kept out of both logs."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        # setup() runs again on every reload; the logger object is gunicorn's global one.
        if not any(isinstance(f, RedactingFilter) for f in self.error_log.filters):
            self.error_log.addFilter(RedactingFilter())
        for handler in self.error_log.handlers:
            handler.setFormatter(JsonFormatter())

    def access(self, resp: Any, req: Any, environ: dict, request_time: Any) -> None:
        if self.cfg.access_log_format != AccessLogFormat.default:
            super().access(resp, req, environ, request_time)
            return
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        try:
            self.access_log.info(access_line(atoms))
        except Exception:  # as gunicorn does: a log line never fails the request
            self.error(traceback.format_exc())

    def atoms(self, resp: Any, req: Any, environ: dict, request_time: Any) -> dict[str, Any]:
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            name: redact(value) if isinstance(value, str) else value
            for name, value in atoms.items()
            if name not in _CREDENTIAL_ATOMS
        }


def access_line(atoms: dict[str, Any]) -> str:
    """The JSON access line for gunicorn's (already redacted) ``atoms`` of one request."""
    status, sent = str(atoms.get("s")), atoms.get("B")
    return log_line(
        "INFO",
        "gunicorn.access",
        atoms.get("r", "-"),
        at=time.time(),
        requestId=atoms.get("{x-request-id}o", "-"),
        remoteAddr=atoms.get("h", "-"),
        method=atoms.get("m"),
        path=atoms.get("U"),
        query=atoms.get("q") or "",
        status=int(status) if status.isdigit() else status,
        bytes=sent if isinstance(sent, int) else 0,
        durationMs=round(atoms.get("D", 0) / 1000, 3),
        referer=atoms.get("f", "-"),
        userAgent=atoms.get("a", "-"),
    )
