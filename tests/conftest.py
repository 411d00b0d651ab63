"""Fixtures every suite uses the same way (shared, storage and memory)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable, Iterator

import pytest


@pytest.fixture
def log_lines() -> Iterator[Callable[[], list[dict]]]:
    """The JSON lines the service's configured ``console`` handler writes, parsed."""
    [console] = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    assert isinstance(console, logging.StreamHandler)
    stream = io.StringIO()
    previous = console.setStream(stream)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    console.setStream(previous)
