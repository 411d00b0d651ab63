"""Log lines as JSON objects, one a line, each with the request id of the request it belongs to.

Both services' ``LOGGING`` and gunicorn's error log use ``JsonFormatter``; gunicorn's access log
writes the same shape (``shared.access_log``). ``json.dumps`` escapes what a message may carry
(newlines, quotes, lone surrogates), so a line is always one parseable object.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from shared import request_id


def log_line(level: str, logger: str, message: str, *, at: float, **fields: Any) -> str:
    """One JSON log line: time ``at`` (UTC), level, logger, request id, message, then ``fields``."""
    record = {
        "time": datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds"),
        "level": level,
        "logger": logger,
        "requestId": fields.pop("requestId", None) or request_id.current.get(),
        "message": message,
        **fields,
    }
    return json.dumps(record, default=str)


class JsonFormatter(logging.Formatter):
    """Format a record as ``log_line`` does, with its traceback under ``exception``."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = {}
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            fields["exception"] = record.exc_text
        return log_line(
            record.levelname, record.name, record.getMessage(), at=record.created, **fields
        )
