"""What the download tests share: the bytes they upload and how they read a streamed answer."""

from __future__ import annotations

DATA = bytes(range(256)) * 40  # 10,240 bytes


def body(response) -> bytes:
    return b"".join(response.streaming_content)
