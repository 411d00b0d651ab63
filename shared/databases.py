"""Both services' database settings from ``DATABASE_URL``: the embedded SQLite when it is unset,
made to hold up under concurrent requests, or PostgreSQL tuned for many short requests."""

from __future__ import annotations

from pathlib import Path

import dj_database_url


def database_config(
    url: str, sqlite_path: Path, *, service: str, prepared_statements: bool = True
) -> dj_database_url.DBConfig:
    """Parse ``DATABASE_URL``; SQLite gets WAL, immediate transactions and a busy timeout."""
    config = dj_database_url.parse(url or f"sqlite:///{sqlite_path}", conn_max_age=60)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        Path(config["NAME"]).parent.mkdir(parents=True, exist_ok=True)
        config["CONN_MAX_AGE"] = 0
        config["OPTIONS"] = {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
        config["TEST"] = {"NAME": str(sqlite_path.with_name(f"test_{sqlite_path.name}"))}
    else:
        config["CONN_HEALTH_CHECKS"] = True
        if config["ENGINE"] == "django.db.backends.postgresql":
            # Checks a reused connection only after it sat idle (shared/postgresql/base.py).
            config["ENGINE"] = "shared.postgresql"
            config["OPTIONS"] = {
                # Parameters bound by the server, so that psycopg prepares a statement the fifth
                # time a connection runs it: PostgreSQL then stops planning, on every request,
                # the few queries every request repeats. Off behind a pooler in transaction mode
                # that cannot keep prepared statements (PgBouncer before 1.21).
                "server_side_binding": True,
                "prepare_threshold": 5 if prepared_statements else None,
            }
        # Both services' suites may run at once on one server: each its own test database.
        config["TEST"] = {"NAME": f"test_{config['NAME']}_{service}"}
    return config
