"""What the request being served notes about its own usage, for the usage middleware to count."""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestUsage:
    at: float
    org_id: str | None = None
    label: str | None = None
    counted: bool = False  # the request itself, with its rate limit; its bytes come after
    upload: int = 0
    download: int = 0


current: ContextVar[RequestUsage | None] = ContextVar("request_usage", default=None)


def note_upload(size: int) -> None:
    """File content of ``size`` bytes was received and stored."""
    usage = current.get()
    if usage is not None:
        usage.upload += size


def note_download(*, org_id: str, size: int = 0) -> None:
    """The request serves a file of ``org_id`` (a signed link carries no key) and sends ``size``
    bytes that do not pass through the response (a redirect to the object store)."""
    usage = current.get()
    if usage is not None:
        usage.org_id = usage.org_id or org_id
        usage.download += size
