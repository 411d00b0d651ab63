from __future__ import annotations

import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from gunicorn.config import Config

from shared.gunicorn_worker import ThreadWorker


@pytest.fixture
def worker():
    worker = ThreadWorker(1, 0, [], None, 30, Config(), mock.Mock())
    worker.tpool = ThreadPoolExecutor(max_workers=1)
    yield worker
    worker.tpool.shutdown()
    worker.tmp.close()


def quit_in_a_thread(worker: ThreadWorker) -> threading.Event:
    """Run the quit handler as a signal would, and return an event set when it exits."""
    exited = threading.Event()

    def handle() -> None:
        try:
            worker.handle_quit(signal.SIGQUIT, None)
        except SystemExit:
            exited.set()

    threading.Thread(target=handle, daemon=True).start()
    return exited


def test_a_quit_signal_exits_while_the_pool_lock_is_held(worker):
    # The main thread holds this lock inside submit(), and inside a first quit's shutdown() when
    # a second signal lands (Ctrl-C's SIGINT, then the master's SIGQUIT): gthread's own handler
    # would wait for it forever.
    with worker.tpool._shutdown_lock:
        exited = quit_in_a_thread(worker)
        assert exited.wait(timeout=2), "the quit handler waited for the thread pool's lock"
    assert worker.alive is False
