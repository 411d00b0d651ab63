"""Django's PostgreSQL backend, checking a reused connection's health only after it sat idle.

With ``CONN_HEALTH_CHECKS`` Django runs ``SELECT 1`` at the start of every request that reuses a
connection: a round trip that cost a tenth of an authenticated list of files in process. What it
guards against is a connection that died while nobody used it (the server restarted, a firewall
dropped it), so here it runs only when the connection's last request began ``BUSY_SECONDS`` ago
or more. A connection busy with requests is trusted between them as Django trusts it within one;
if the server goes away under load, the request that meets the dead connection fails as one in
flight would, and Django closes the connection after it.
"""

from __future__ import annotations

import time

from django.db.backends.postgresql import base

BUSY_SECONDS = 1.0


class DatabaseWrapper(base.DatabaseWrapper):
    # When the request before this one first used the connection (monotonic clock).
    last_request_at = float("-inf")
    health_check_done: bool  # Django's, which django-stubs does not declare

    def close_if_health_check_failed(self) -> None:
        if self.connection is not None and not self.health_check_done:
            now = time.monotonic()
            if now - self.last_request_at < BUSY_SECONDS:
                self.health_check_done = True
            self.last_request_at = now
        super().close_if_health_check_failed()
