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
"""

from __future__ import annotations

from types import FrameType

from gunicorn.workers import gthread


class ThreadWorker(gthread.ThreadWorker):
    """``gthread`` whose quick shutdown takes no lock in the signal handler."""

    def handle_quit(self, sig: int, frame: FrameType | None) -> None:
        # Skip gthread's override (the tpool.shutdown() call) for base.Worker's: stop, exit.
        super(gthread.ThreadWorker, self).handle_quit(sig, frame)
