"""Gunicorn's threaded worker, minus a deadlock in its quick shutdown.

``gthread.ThreadWorker.handle_quit`` (SIGINT, SIGQUIT) calls ``ThreadPoolExecutor.shutdown()``
inside the signal handler. That takes the pool's ``_shutdown_lock``, a plain ``Lock``, which the
main thread may already hold: inside ``submit()``, or inside the same handler when a second quit
signal lands during the first (python/cpython#121649). The worker then hangs until the master
gives up after ``graceful_timeout`` and logs "Worker was sent SIGKILL! Perhaps out of memory?".

A terminal's Ctrl-C makes the second signal likely: it sends SIGINT to the whole foreground
process group, so each worker gets it once from the terminal and then SIGQUIT from its master.
That is how Ctrl-C on ``make run`` hung for 30 s in one stop of five to ten; gunicorn in the
foreground of a terminal (``make run-storage``) is open to the same race. SIGTERM, the graceful
stop, has a handler that takes no lock and is left alone.

The shutdown call is not needed: ``sys.exit`` follows it, and at exit ``concurrent.futures``
wakes and joins the pool's threads itself (a request in flight is finished, as before). So this
worker skips it and quits the way every other gunicorn worker does (checked on gunicorn 27.0.1).

Gunicorn also answers some requests itself, before the application sees them (a request line
past ``limit_request_line``, a malformed Content-Length), and it answers with HTML. When the
application offers ``early_error(status, reason) -> (status, body)`` (each service's wsgi module
sets it), this worker sends that JSON instead, in the service's own error shape.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from gunicorn import util
from gunicorn.workers import gthread

STATUS_LINE = re.compile(rb"HTTP/1\.1 (\d{3}) ([^\r\n]*)")
EarlyError = Callable[[int, str], tuple[int, dict[str, Any]]]


class ThreadWorker(gthread.ThreadWorker):
    """``gthread`` whose quick shutdown takes no lock in the signal handler, and whose workers
    share a burst of new connections."""

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        # Skip gthread's override (the tpool.shutdown() call) for base.Worker's: stop, exit.
        super(gthread.ThreadWorker, self).handle_quit(sig, frame)

    def accept(self, listener: Any) -> None:
        # Every worker is woken for a new connection and the first to call accept() takes it,
        # so a burst of keep-alive connections (a proxy's pool, a load generator) could all
        # land on one worker, whose threads then share one core while the others idle. A
        # worker holding as many connections as it has threads or more lets the others go
        # first (1 ms per extra connection, at most 10); if none does, it takes the connection.
        surplus = self.nr_conns - self.cfg.threads
        if surplus >= 0:
            time.sleep(min(0.001 * (surplus + 1), 0.01))
        super().accept(listener)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        render: EarlyError | None = getattr(self.wsgi, "early_error", None)
        if render is None:
            return super().handle_error(req, client, addr, exc)
        # gunicorn logs the error and writes its HTML page: keep the first, replace the second.
        captured = _Captured(client)
        super().handle_error(req, captured, addr, exc)
        match = STATUS_LINE.match(captured.data)
        status, reason = (int(match[1]), match[2].decode("latin-1")) if match else (500, "")
        status, body = render(status, reason)
        payload = json.dumps(body).encode()
        head = (
            f"HTTP/1.1 {status} {_REASONS.get(status, reason)}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        )
        try:
            util.write_nonblock(client, head.encode("latin-1") + payload)
        except Exception:  # the client may be gone already, as gunicorn's own write allows
            self.log.debug("Failed to send error message.")


_REASONS = {400: "Bad Request", 500: "Internal Server Error"}


class _Captured:
    """The client socket, but what is sent to it is kept here instead."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.data = b""

    def sendall(self, data: bytes) -> None:
        self.data += bytes(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)
