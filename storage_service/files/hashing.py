"""SHA-256 of an upload, computed beside the request thread rather than on it."""

from __future__ import annotations

import hashlib
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

# hashlib releases the GIL on buffers over 2 KiB, so a chunk hashes on another core while the
# request thread reads and writes the next one. A few threads suffice: each upload has at most
# one chunk in flight.
_THREADS = 4
_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _hashing() -> ThreadPoolExecutor:
    global _pool
    pool = _pool
    if pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=_THREADS, thread_name_prefix="upload-sha256")
            pool = _pool
    return pool


def _forget_pool() -> None:
    # A forked child (a gunicorn worker, a test's second process) inherits the pool without
    # its threads, and would queue work that nothing runs: it starts its own.
    global _pool, _pool_lock
    _pool, _pool_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_pool)


class StreamDigest:
    """``hashlib.sha256`` over chunks fed in order, one chunk hashing while the caller goes on.

    ``update`` waits for the previous chunk before queueing the next, so the order holds and
    at most one chunk is held beyond the caller's own.
    """

    def __init__(self) -> None:
        self._digest = hashlib.sha256()
        self._pending: Future[None] | None = None

    def update(self, data: bytes) -> None:
        self._wait()
        self._pending = _hashing().submit(self._digest.update, data)

    def hexdigest(self) -> str:
        self._wait()
        return self._digest.hexdigest()

    def _wait(self) -> None:
        if self._pending is not None:
            pending, self._pending = self._pending, None
            pending.result()
