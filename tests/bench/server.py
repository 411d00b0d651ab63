"""What a bench run sets up and tears down: a throwaway database, the service's environment, and
gunicorn on loopback (with its workers' memory read from /proc)."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DEFAULT_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def add_server_arguments(
    parser: argparse.ArgumentParser,
    *,
    database: str | None = None,
    redis: str | None = None,
    admin_url_variable: str = "BENCH_DATABASE_ADMIN_URL",
) -> None:
    """Add what every benchmark and check runs against: ``--database-admin-url``, and
    ``--database`` (its throwaway database) and ``--redis-url`` when given their default/help."""
    parser.add_argument(
        "--database-admin-url",
        default=os.environ.get(admin_url_variable, DEFAULT_ADMIN_URL),
        help="any database on the PostgreSQL server (the run creates its own beside it)",
    )
    if database is not None:
        parser.add_argument("--database", default=database, help="throwaway database name")
    if redis is not None:
        parser.add_argument(
            "--redis-url",
            default=os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0",
            help=redis,
        )


@dataclass(frozen=True)
class Database:
    """A database on the PostgreSQL server that ``admin_url`` reaches (any of its databases)."""

    admin_url: str
    name: str

    @property
    def url(self) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.admin_url)
        info["dbname"] = self.name
        return psycopg.conninfo.make_conninfo("", **info)

    @property
    def django_url(self) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.url)
        user = info.get("user", "postgres")
        password = f":{info['password']}" if info.get("password") else ""
        host = info.get("host", "127.0.0.1")
        port = info.get("port", "5432")
        return f"postgres://{user}{password}@{host}:{port}/{self.name}"

    def create(self) -> None:
        """Create the database, dropping a leftover of an interrupted run first."""
        self.drop()
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))

    def drop(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(self.name))
            )

    def connect(self) -> psycopg.Connection:
        # Client-side binding: the seeding SQL reuses parameters in places of different types.
        return psycopg.connect(self.url, autocommit=True, cursor_factory=psycopg.ClientCursor)


def one_row(cursor: psycopg.Cursor) -> tuple:
    """The row of a query that always returns one."""
    row = cursor.fetchone()
    assert row is not None
    return row


def redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=2).ping())
    except (redis.RedisError, OSError):
        return False


def redis_forget(url: str, namespace: str) -> None:
    """Delete the rate-limit counters this run made (they would expire within the hour anyway)."""
    import redis

    with contextlib.suppress(redis.RedisError, OSError):
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        keys = list(client.scan_iter(f"{namespace}:*", count=1000))
        if keys:
            client.delete(*keys)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def manage(env: Mapping[str, str], *args: str, service: str = "storage_service") -> str:
    """Run ``python -m <service> ...`` and return its standard output."""
    done = subprocess.run(
        [sys.executable, "-m", service, *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{service} {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


class Gunicorn:
    """``service`` under gunicorn with its config from ``deploy/``, its log in ``log_path``."""

    def __init__(
        self, env: Mapping[str, str], port: int, log_path: Path, service: str = "storage_service"
    ) -> None:
        self.env = dict(env)
        self.port = port
        self.log_path = log_path
        self.service = service
        self.process: subprocess.Popen | None = None

    def start(self, ready_path: str, headers: Mapping[str, str], timeout: float = 60) -> None:
        command = [
            str(BIN / "gunicorn"),
            "-c",
            f"deploy/{self.service.removesuffix('_service')}/gunicorn.conf.py",
            "-b",
            f"127.0.0.1:{self.port}",
            f"{self.service}.wsgi:application",
        ]
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"gunicorn exited ({self.process.returncode}):\n{self.log_tail()}"
                )
            with contextlib.suppress(OSError):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", ready_path, headers=dict(headers))
                status = conn.getresponse().status
                conn.close()
                if status == 200 and len(self.worker_pids()) == int(self.env["WEB_CONCURRENCY"]):
                    return
            time.sleep(0.25)
        raise RuntimeError(f"gunicorn was not ready in {timeout:.0f} s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def worker_pids(self) -> list[int]:
        """The master's children, found by their parent pid in /proc."""
        if self.process is None:
            return []
        return sorted(pid for pid, ppid in _processes() if ppid == self.process.pid)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def migrate_with_bench_key(env: Mapping[str, str], database: Database) -> tuple[str, str]:
    """Migrate the storage database of ``env`` and give it an organisation "bench" on the
    production plan with one key; return the organisation's id and the key's secret."""
    manage(env, "migrate", "--noinput", "-v", "0")
    secret = manage(
        env, "createkey", "--org", "bench", "--name", "bench", "--plan", "production"
    ).splitlines()[-1]
    with database.connect() as conn:
        (org_id,) = one_row(
            conn.execute("SELECT id FROM accounts_organisation WHERE name = 'bench'")
        )
    return org_id, secret


def _processes() -> Iterator[tuple[int, int]]:
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError):
            status = proc_status(int(entry))
            yield int(entry), int(status["PPid"])


def proc_status(pid: int) -> dict[str, str]:
    """``/proc/<pid>/status`` as a dict of its first value per field."""
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            fields[name] = value.strip()
    return fields


def peak_rss_bytes(pid: int) -> int:
    """The process's peak resident set size (``VmHWM``), in bytes."""
    value, unit = proc_status(pid)["VmHWM"].split()
    assert unit == "kB", unit
    return int(value) * 1024


@contextlib.contextmanager
def single_run_lock(path: Path) -> Iterator[None]:
    """Hold ``path`` locked for the run, or exit when another run of the same bench holds it."""
    path.parent.mkdir(exist_ok=True)
    with open(path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            sys.exit(f"Another run holds {path}.")
        yield
