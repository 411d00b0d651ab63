"""The per-request overhead benchmark (``make bench-overhead``).

In one run, each server alone on the machine and all under the same gunicorn config
(``deploy/storage/gunicorn.conf.py``: gthread, 2 workers x 4 threads), ``wrk -t2 -c16 --latency``
drives, one row at a time:

1. a bare DRF function view (``tests/bench/bare``: no middleware, no authentication, no database)
   answering 20 File-shaped records in the storage envelope: the baseline;
2. the storage service on PostgreSQL and Redis: no key (401), a valid key on an unknown route
   (404), ``GET /v1/files?limit=20`` (20+ files seeded by upload), ``/v1/folders``, ``/v1/billing``;
3. the memory service on PostgreSQL and Redis: no key (401), a valid key on an unknown route
   (404), a recall that matches nothing and ``GET /api/v1/memories?limit=20`` (50 memories seeded).

Each row reports req/s, its share of the bare view's req/s, p50 and p99, and the CPU the wrk
process and the gunicorn workers used over the row (in cores), so a row where wrk rather than the
server is the limit shows. Every storage row uses an organisation of its own, so the production
plan's 100,000 requests an hour never bind. The per-address limit of requests without a key is
the Free plan's 1,000 an hour with no setting to raise it, so before the 401 row the bench sets
this run's Redis counter for 127.0.0.1 far below zero (its own namespace; deleted at the end).
Each row's status is checked by one request before and one after it.

``--quick`` runs each row for 3 s instead of 10 s. Everything it makes is thrown away at the end:
the databases, the work directory under var/, the servers, the Redis keys of its namespace.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.bench import client
from tests.bench.server import (
    BIN,
    ROOT,
    Database,
    Gunicorn,
    add_server_arguments,
    free_port,
    manage,
    redis_forget,
    redis_reachable,
)
from tests.bench.storage import terminate_as_exit

VAR = ROOT / "var"
CONFIG = "deploy/storage/gunicorn.conf.py"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
BASE = "bare"

# The targets: a row's req/s as a share of the bare view's.
TARGETS = {
    "storage GET /v1/files?limit=20": 0.40,
    "storage GET /v1/nowhere (key, 404)": 0.70,
    "memory POST /api/v1/recall (no match)": 0.40,
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 s per row instead of 10 s")
    parser.add_argument("--seconds", type=int, help="wrk duration per row (overrides --quick)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="gunicorn threads per worker")
    add_server_arguments(parser, redis="Redis for rate limits (storage) and the cache (memory)")
    return parser.parse_args(argv)


def log(message: str) -> None:
    print(f"[bench-overhead {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- wrk -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """One row: what wrk sends and the status every answer must have."""

    name: str
    method: str
    path: str
    status: int
    headers: Mapping[str, str]
    body: str = ""


@dataclass(frozen=True)
class Measured:
    load: Load
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    requests: int
    non_2xx: int
    socket_errors: str
    wrk_cores: float
    server_cores: float
    machine_busy: float


UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def parse_ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if match is None:
        raise RuntimeError(f"unexpected wrk duration {text!r}")
    number, unit = match.groups()
    return float(number) * UNITS_MS[unit]


def parse_wrk(output: str) -> dict[str, Any]:
    def find(pattern: str) -> str:
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise RuntimeError(f"unexpected wrk output (no {pattern!r}):\n{output}")
        return match.group(1)

    errors = re.search(r"^\s*Socket errors: (.*)$", output, re.MULTILINE)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "requests_per_s": float(find(r"^Requests/sec:\s+([\d.]+)")),
        "p50_ms": parse_ms(find(r"^\s+50%\s+(\S+)")),
        "p99_ms": parse_ms(find(r"^\s+99%\s+(\S+)")),
        "requests": int(find(r"^\s+(\d+) requests in")),
        "non_2xx": int(non_2xx.group(1)) if non_2xx else 0,
        "socket_errors": errors.group(1).strip() if errors else "",
    }


def lua_script(load: Load, directory: Path) -> Path | None:
    """wrk sends GETs without a script; another method or a body needs one."""
    if load.method == "GET" and not load.body:
        return None
    script = directory / f"wrk-{secrets.token_hex(4)}.lua"
    script.write_text(
        f"wrk.method = {json.dumps(load.method)}\n"
        f"wrk.body = {json.dumps(load.body)}\n"
        'wrk.headers["Content-Type"] = "application/json"\n'
    )
    return script


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU of ``pids`` so far, from /proc/<pid>/stat."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / CLOCK_TICKS


def machine_busy_idle() -> tuple[int, int]:
    """Busy and idle jiffies of all cores so far, from the first line of /proc/stat."""
    with open("/proc/stat") as stat:
        values = [int(value) for value in stat.readline().split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return sum(values[:8]) - idle, idle


def children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def probe(port: int, load: Load) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = dict(load.headers)
        body = load.body.encode() if load.body else None
        if body:
            headers["Content-Type"] = "application/json"
        conn.request(load.method, load.path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def run_wrk(
    server: Gunicorn, load: Load, seconds: int, work: Path, *, warm_up: bool = True
) -> Measured:
    before = probe(server.port, load)
    if before != load.status:
        raise RuntimeError(f"{load.name}: {before} before the run, expected {load.status}")
    script = lua_script(load, work)
    command = ["wrk", "-t2", "-c16", "--latency"]
    for name, value in load.headers.items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    url = f"http://127.0.0.1:{server.port}{load.path}"
    if warm_up:
        subprocess.run([*command, "-d1s", url], capture_output=True, check=True)
    workers = server.worker_pids()
    wrk_before, server_before = children_cpu_seconds(), cpu_seconds(workers)
    busy_before, idle_before = machine_busy_idle()
    started = time.perf_counter()
    done = subprocess.run(
        [*command, f"-d{seconds}s", url], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - started
    busy_after, idle_after = machine_busy_idle()
    busy, idle = busy_after - busy_before, idle_after - idle_before
    wrk_cpu, server_cpu = children_cpu_seconds() - wrk_before, cpu_seconds(workers) - server_before
    after = probe(server.port, load)
    if after != load.status:
        raise RuntimeError(f"{load.name}: {after} after the run, expected {load.status}")
    if server.worker_pids() != workers:
        raise RuntimeError(f"{load.name}: a gunicorn worker died:\n{server.log_tail()}")
    parsed = parse_wrk(done.stdout)
    expected_non_2xx = 0 if load.status < 300 else parsed["requests"]
    if parsed["non_2xx"] != expected_non_2xx:
        raise RuntimeError(f"{load.name}: {parsed['non_2xx']} non-2xx answers:\n{done.stdout}")
    return Measured(
        load=load,
        wrk_cores=wrk_cpu / wall,
        server_cores=server_cpu / wall,
        machine_busy=busy / (busy + idle),
        **parsed,
    )


# -- servers -------------------------------------------------------------------------------------


class BareGunicorn(Gunicorn):
    """The bare project under the storage service's gunicorn config."""

    def start(self, ready_path: str, headers: Mapping[str, str], timeout: float = 60) -> None:
        command = [
            str(BIN / "gunicorn"),
            *("-c", CONFIG, "-b", f"127.0.0.1:{self.port}"),
            "tests.bench.bare.wsgi:application",
        ]
        with open(self.log_path, "ab") as log_file:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.env, stdout=log_file, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited:\n{self.log_tail()}")
            with contextlib.suppress(OSError):
                if probe(self.port, Load("ready", "GET", ready_path, 200, headers)) == 200 and len(
                    self.worker_pids()
                ) == int(self.env["WEB_CONCURRENCY"]):
                    return
            time.sleep(0.25)
        raise RuntimeError(f"gunicorn was not ready in {timeout:.0f} s:\n{self.log_tail()}")


@contextlib.contextmanager
def serving(server: Gunicorn, ready_path: str, headers: Mapping[str, str]) -> Iterator[Gunicorn]:
    try:
        server.start(ready_path, headers)
        yield server
    except BaseException:
        log(f"gunicorn's last lines:\n{server.log_tail()}")
        raise
    finally:
        server.stop()


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.seconds = args.seconds or (3 if args.quick else 10)
        self.work = Path(
            tempfile.mkdtemp(prefix="bench-overhead-", dir=VAR if VAR.is_dir() else None)
        )
        self.storage_db = Database(args.database_admin_url, "bench_overhead_storage")
        self.memory_db = Database(args.database_admin_url, "bench_overhead_memory")
        self.namespace = f"bench-overhead-{secrets.token_hex(4)}"
        self.secret_key = secrets.token_urlsafe(48)
        self.rows: list[Measured] = []

    def __enter__(self) -> Bench:
        if not redis_reachable(self.args.redis_url):
            raise SystemExit(f"Redis is not reachable at {self.args.redis_url}")
        self.storage_db.create()
        self.memory_db.create()
        return self

    def __exit__(self, *exc_info: object) -> None:
        for database in (self.storage_db, self.memory_db):
            with contextlib.suppress(Exception):
                database.drop()
        redis_forget(self.args.redis_url, self.namespace)
        shutil.rmtree(self.work, ignore_errors=True)
        log("cleaned up (databases dropped, work directory removed)")

    def env(self, database: Database | None) -> dict[str, str]:
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("GUNICORN", "STORAGE_", "MEMORY_", "DJANGO_"))
            and name
            not in {"FILE_UPLOAD_TEMP_DIR", "MEDIA_ROOT", "API_KEY_PEPPER", "ALLOWED_HOSTS"}
        }
        env.update(
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            WEB_CONCURRENCY=str(self.args.workers),
            GUNICORN_THREADS=str(self.args.threads),
            LOG_LEVEL="WARNING",
        )
        if database is not None:
            env.update(
                DATABASE_URL=database.django_url,
                REDIS_URL=self.args.redis_url,
                MEDIA_ROOT=str(self.work / "media"),
                VAR_DIR=str(self.work / "var"),
                RATE_LIMIT_NAMESPACE=self.namespace,
            )
        return env

    def measure(self, server: Gunicorn, load: Load) -> None:
        log(f"{load.name}: {self.seconds} s")
        self.rows.append(run_wrk(server, load, self.seconds, self.work))

    # the three servers, one at a time

    def run(self) -> None:
        self.run_bare()
        self.run_storage()
        self.run_memory()

    def run_bare(self) -> None:
        server = BareGunicorn(self.env(None), free_port(), self.work / "bare.log")
        with serving(server, "/files", {}):
            self.measure(server, Load(BASE, "GET", "/files", 200, {}))

    def storage_key(self, env: dict[str, str], org: str) -> dict[str, str]:
        output = manage(env, "createkey", "--org", org, "--name", org, "--plan", "production")
        return {"Authorization": f"Bearer {output.splitlines()[-1].strip()}"}

    def run_storage(self) -> None:
        env = self.env(self.storage_db)
        log("storage: migrating, making keys")
        manage(env, "migrate", "--noinput", "-v", "0")
        keys = {row: self.storage_key(env, f"bench-{row}") for row in ("404", "files", "other")}
        server = Gunicorn(env, free_port(), self.work / "storage.log")
        with serving(server, "/v1/billing", keys["other"]):
            self.seed_files(server.port, keys["files"]["Authorization"].split()[-1])
            self.open_address_limit()
            loads = [
                Load("storage GET /v1/billing (no key, 401)", "GET", "/v1/billing", 401, {}),
                Load("storage GET /v1/nowhere (key, 404)", "GET", "/v1/nowhere", 404, keys["404"]),
                Load(
                    "storage GET /v1/files?limit=20",
                    "GET",
                    "/v1/files?limit=20",
                    200,
                    keys["files"],
                ),
            ]
            for load in loads:
                self.measure(server, load)
            # Each further row on an organisation of its own, made while the server runs.
            for path in ("/v1/folders", "/v1/billing"):
                key = self.storage_key(env, f"bench-{path.rsplit('/', 1)[-1]}")
                self.measure(server, Load(f"storage GET {path}", "GET", path, 200, key))

    def seed_files(self, port: int, secret: str) -> None:
        api = client.Api("127.0.0.1", port, secret)
        source = client.source_create(str(self.work / "seed.bin"), 4096)
        for index in range(25):
            client.upload_single(api, source, f"seed-{index:02d}.bin")

    def open_address_limit(self) -> None:
        """Set this run's per-address counter for loopback far below zero, this hour and next."""
        import redis

        redis_client = redis.Redis.from_url(self.args.redis_url)
        hour = int(time.time()) // 3600 * 3600
        for start in (hour, hour + 3600):
            key = f"{self.namespace}:rl:addr:127.0.0.1:{start}"
            redis_client.set(key, -(10**9), ex=3 * 3600)

    def run_memory(self) -> None:
        env = self.env(self.memory_db)
        service = "memory_service"
        log("memory: migrating, making a key")
        manage(env, "migrate", "--noinput", "-v", "0", service=service)
        output = manage(env, "createkey", "--org", "bench", "--name", "bench", service=service)
        key = {"Authorization": f"Bearer {output.splitlines()[-1].strip()}"}
        server = Gunicorn(env, free_port(), self.work / "memory.log", service=service)
        with serving(server, "/api/v1/health", {}):
            self.seed_memories(server.port, key)
            recall = json.dumps({"query": "zzzqqq nothing"})
            loads = [
                Load(
                    "memory GET /api/v1/memories (no key, 401)", "GET", "/api/v1/memories", 401, {}
                ),
                Load("memory GET /api/v1/nowhere (key, 404)", "GET", "/api/v1/nowhere", 404, key),
                Load(
                    "memory POST /api/v1/recall (no match)",
                    "POST",
                    "/api/v1/recall",
                    200,
                    key,
                    recall,
                ),
                Load(
                    "memory GET /api/v1/memories?limit=20",
                    "GET",
                    "/api/v1/memories?limit=20",
                    200,
                    key,
                ),
            ]
            for load in loads:
                self.measure(server, load)

    def seed_memories(self, port: int, key: Mapping[str, str]) -> None:
        topics = ["coffee", "hiking", "python", "the garden", "jazz", "the bike", "tea", "chess"]
        for batch in range(5):
            memories = [
                {"content": f"User note {batch * 10 + i}: likes {topics[(batch + i) % 8]}."}
                for i in range(10)
            ]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            try:
                conn.request(
                    "POST",
                    "/api/v1/memories",
                    body=json.dumps({"memories": memories}),
                    headers={**key, "Content-Type": "application/json"},
                )
                response = conn.getresponse()
                body = response.read()
                if response.status not in {200, 201}:
                    raise RuntimeError(f"seeding memories: {response.status} {body[:500]!r}")
            finally:
                conn.close()

    # the table

    def table(self) -> str:
        base = next(row for row in self.rows if row.load.name == BASE).requests_per_s
        heads = (
            "row",
            "req/s",
            "of bare",
            "p50 ms",
            "p99 ms",
            "wrk cores",
            "workers cores",
            "machine busy",
            "target",
        )
        lines = []
        for row in self.rows:
            share = row.requests_per_s / base
            target = TARGETS.get(row.load.name)
            verdict = f">= {target:.0%}: {'ok' if share >= target else 'MISSED'}" if target else ""
            lines.append(
                (
                    row.load.name,
                    f"{row.requests_per_s:,.0f}",
                    f"{share:.0%}",
                    f"{row.p50_ms:.2f}",
                    f"{row.p99_ms:.2f}",
                    f"{row.wrk_cores:.2f}",
                    f"{row.server_cores:.2f}",
                    f"{row.machine_busy:.0%}",
                    verdict,
                )
            )
        widths = [max(len(line[i]) for line in [heads, *lines]) for i in range(len(heads))]
        text = [
            f"Overhead per request: wrk -t2 -c16 -d{self.seconds}s --latency against gunicorn "
            f"({CONFIG}, {self.args.workers} workers x {self.args.threads} threads) on 127.0.0.1, "
            f"one server at a time; PostgreSQL and Redis; {os.cpu_count()} cores",
            "",
        ]
        for line in [heads, *lines]:
            cells = [
                cell.ljust(width) if index in {0, 8} else cell.rjust(width)
                for index, (cell, width) in enumerate(zip(line, widths, strict=True))
            ]
            text.append("  ".join(cells).rstrip())
        wrk_max = max(row.wrk_cores for row in self.rows)
        server_min = min(row.server_cores for row in self.rows)
        busy_min = min(row.machine_busy for row in self.rows)
        text += [
            "",
            f"wrk is not the bottleneck: it used at most {wrk_max:.2f} of a core (its CPU time "
            f"from getrusage(RUSAGE_CHILDREN) over wall time) while the gunicorn workers used "
            f"at least {server_min:.2f} cores and the machine was at least {busy_min:.0%} busy "
            f"(all {os.cpu_count()} cores, /proc/stat) in every row; PostgreSQL, Redis and the "
            "gunicorn master take the rest.",
        ]
        errors = [f"{row.load.name}: {row.socket_errors}" for row in self.rows if row.socket_errors]
        if errors:
            text += ["", "wrk socket errors:", *errors]
        return "\n".join(text) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (apt-get install wrk)")
    signal.signal(signal.SIGTERM, terminate_as_exit)
    VAR.mkdir(exist_ok=True)
    with Bench(args) as bench:
        bench.run()
        print(bench.table(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
