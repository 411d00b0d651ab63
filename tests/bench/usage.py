"""The usage accounting benchmark (``make bench-usage``).

Against gunicorn (the deploy config, 2 gthread workers) on loopback and a throwaway PostgreSQL
database, one organisation on the production plan holds a year of hourly request rollups ending at
the current hour, seeded in SQL: 8,760 hours x 20 endpoint labels (the service's route labels and
``other``), 100,000 requests an hour split over the labels in shares that vary by label, hour of
day, week and at random, with upload bytes on the upload labels and download bytes on the download
label. Its storage series changes about every hour: its 5,000 live files (seeded as
tests/bench/seed.py does) at the hour each was uploaded, plus files uploaded and deleted again
within the year, so the series ends at the organisation's counters. It measures:

1. GET /v1/billing/usage latency (p50, p95; one client on one kept-alive connection, accounting
   on and counted in Redis, as in production, so each report also flushes its own request's
   count): ``period=year`` (by month), a 365-day ``start``/``end`` range at ``granularity=hour``
   and ``period=day`` (by hour). The baseline is the same request for an organisation without any
   usage, on the same server in the same run: what does not depend on the data. Each report is
   also timed in process (its SQL, building it in Python, rendering its JSON), and its SQL is
   EXPLAIN ANALYZEd;
2. the throughput of authenticated GET /v1/files?limit=20 with accounting on and off
   (``STORAGE_USAGE_ACCOUNTING``): two servers alike but for it, driven one at a time by client
   processes (stdlib http.client, several threads each, one kept-alive connection per thread) for
   a fixed time after a warm-up, runs alternating on/off; the median req/s of each and the cost,
   1 - on/off. First with REDIS_URL set (the production path: rate limits and counts in Redis),
   then without (both in the database: the limit's and the usage's upserts in one statement).
   Every run uses an organisation of its own (a copy of the files), so the plan's 100,000
   requests an hour never bind. Each run's CPU is split from /proc by process (client, gunicorn
   workers, PostgreSQL, Redis, the rest) per answer, so the cost shows where it lands, and runs
   that other work on the machine disturbed are flagged. Whether the load generator limits the
   figures: the client processes' CPU share, and runs with half and twice the client processes
   against one server;
3. counting one request in process, against the rate limit alone and with its usage
   (``counting.count_with_limit``), in Redis and in the database.

``--quick`` (30 days of rollups, 1,000 files, 20 reports a case, one 2 s pair per mode) is a smoke
test of under a minute; the default run takes about eight minutes.

Everything it makes is thrown away at the end: the database, the work directory under var/, the
servers, the Redis keys under its own namespace. The results table goes to stdout and
var/bench-usage.txt, the report's query plans to var/bench-usage-plans.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import platform
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.bench import client, seed
from tests.bench.explain import queries_text
from tests.bench.server import (
    ROOT,
    Database,
    Gunicorn,
    add_server_arguments,
    free_port,
    migrate_with_bench_key,
    one_row,
    redis_forget,
    redis_reachable,
    single_run_lock,
)
from tests.bench.storage import Results, Row, percentile, terminate_as_exit

VAR = ROOT / "var"
REPORT = VAR / "bench-usage.txt"
PLANS = VAR / "bench-usage-plans.txt"
FAILED_LOG = VAR / "bench-usage-gunicorn.log"
HOUR = 3600
LIST_PATH = "/v1/files?limit=20"
USAGE_PATH = "/v1/billing/usage"

# The targets.
YEAR_HOURLY_P95_MS = 300.0
DAY_P95_MS = 30.0
ACCOUNTING_COST = 0.05
# A run in which more of the machine's CPU than this went elsewhere is flagged as disturbed.
OTHER_CPU_SHARE = 0.15

# The seeded labels: (label, share of requests in percent, upload and download bytes a request).
LABELS = [
    ("GET /files", 19.0, 0, 0),
    ("GET /files/{fileId}", 16.0, 0, 0),
    ("GET /downloads/{token}", 14.0, 0, 3_500_000),
    ("GET /folders", 9.0, 0, 0),
    ("POST /files/upload", 7.0, 1_800_000, 0),
    ("PUT /files/multipart-upload/{uploadId}/parts/{partNumber}", 6.0, 8 * 1024 * 1024, 0),
    ("GET /folders/{folderId}", 5.0, 0, 0),
    ("DELETE /files/{fileId}", 4.0, 0, 0),
    ("GET /billing", 3.0, 0, 0),
    ("POST /folders", 3.0, 0, 0),
    ("POST /files/multipart-upload-start", 2.0, 0, 0),
    ("POST /files/multipart-upload-complete", 2.0, 0, 0),
    ("other", 2.5, 0, 0),
    ("GET /keys", 1.5, 0, 0),
    ("DELETE /folders/{folderId}", 1.5, 0, 0),
    ("GET /billing/usage", 1.5, 0, 0),
    ("DELETE /files/multipart-upload/{uploadId}", 1.0, 0, 0),
    ("POST /folders/{folderId}/restore", 0.7, 0, 0),
    ("DELETE /folders/bulk", 0.6, 0, 0),
    ("POST /keys", 0.7, 0, 0),
]
assert len(LABELS) == 20 and abs(sum(label[1] for label in LABELS) - 100) < 1e-9
CATEGORIES = ["image", "document", "video", "audio", "other"]

# Requests per hour and label: each label's share, moved by the hour of day (its own phase), by
# the week, and at random, then scaled so that every hour sums to exactly ``per_hour`` (the first
# label takes the rounding).
ROLLUPS_SQL = """
WITH labels AS (
    SELECT n, label, share, up, down
    FROM unnest(%(labels)s::text[], %(shares)s::float8[], %(ups)s::bigint[], %(downs)s::bigint[])
         WITH ORDINALITY AS l(label, share, up, down, n)
), hours AS (
    SELECT %(last)s::bigint - g * 3600 AS hour FROM generate_series(0, %(hours)s - 1) AS g
), weights AS (
    SELECT h.hour, l.n, l.label, l.up, l.down,
           l.share
           * (1 + 0.5 * sin(2 * pi() * ((h.hour / 3600) %% 24 + 3 * l.n) / 24))
           * (1 + 0.2 * sin(2 * pi() * (h.hour / 3600) / 168 + l.n))
           * (0.6 + 0.8 * random()) AS w
    FROM hours AS h CROSS JOIN labels AS l
), rounded AS (
    SELECT hour, n, label, up, down,
           floor(%(per_hour)s * w / sum(w) OVER (PARTITION BY hour))::bigint AS r
    FROM weights
), counted AS (
    SELECT hour, n, label, up, down,
           r + CASE WHEN n = 1 THEN %(per_hour)s - sum(r) OVER (PARTITION BY hour) ELSE 0 END
               AS requests
    FROM rounded
)
INSERT INTO billing_request_rollup
    (organisation_id, hour, endpoint, requests, upload_bytes, download_bytes)
SELECT %(org)s, hour, label, requests,
       floor(requests * up * (0.5 + random()))::bigint,
       floor(requests * down * (0.5 + random()))::bigint
FROM counted
"""

# The storage series: live files at their upload hour, and files uploaded at one hour and deleted
# at a later one (both inside the seeded hours, so they cancel out by the end).
STORAGE_SQL = """
WITH churn AS (
    SELECT h AS hour, c.category,
           floor(exp(ln(20000) + random() * (ln(200000000) - ln(20000))))::bigint AS size,
           1 + floor(random() * 4)::bigint AS files,
           h + 3600 * (1 + floor(random() * 2000))::bigint AS gone
    FROM generate_series(%(first)s::bigint, %(last)s::bigint, 3600) AS h
    CROSS JOIN unnest(%(categories)s::text[]) AS c(category)
    WHERE random() < %(churn)s
), changes AS (
    SELECT hour, category, size, files FROM churn WHERE gone <= %(last)s
    UNION ALL
    SELECT gone, category, -size, -files FROM churn WHERE gone <= %(last)s
    UNION ALL
    SELECT floor(extract(epoch FROM uploaded_at))::bigint
           - floor(extract(epoch FROM uploaded_at))::bigint %% 3600,
           category, size, 1
    FROM files_file WHERE organisation_id = %(org)s AND deleted_at IS NULL
)
INSERT INTO billing_storage_change (organisation_id, hour, category, bytes, files)
SELECT %(org)s, hour, category, sum(size), sum(files) FROM changes
GROUP BY hour, category HAVING sum(size) <> 0 OR sum(files) <> 0
"""

# Another organisation's copy of the source organisation's live files (at the root), and its
# counters; the tallies follow by trigger.
COPY_FILES_SQL = """
INSERT INTO files_file (id, organisation_id, folder_id, name, size, content_type, category,
                        storage_name, sha256, metadata, uploaded_at, updated_at, deleted_at,
                        trash_root_id)
SELECT 'file_' || substr(md5(%(org)s || id), 1, 20), %(org)s, NULL, name, size, content_type,
       category, %(org)s || '/file_' || substr(md5(%(org)s || id), 1, 20), sha256, metadata,
       uploaded_at, updated_at, NULL, NULL
FROM files_file WHERE organisation_id = %(source)s AND deleted_at IS NULL
"""
COUNTERS_SQL = """
UPDATE accounts_organisation o SET
    file_count = (SELECT count(*) FROM files_file
                  WHERE organisation_id = o.id AND deleted_at IS NULL),
    storage_used = (SELECT coalesce(sum(size), 0) FROM files_file
                    WHERE organisation_id = o.id AND deleted_at IS NULL)
WHERE o.id = %(org)s
"""


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke test: under a minute")
    parser.add_argument("--hours", type=int, help="hours of rollups to seed (default 8,760)")
    parser.add_argument("--per-hour", type=int, default=100_000, help="requests an hour")
    parser.add_argument("--files", type=int, help="live files to seed (default 5,000)")
    parser.add_argument("--requests", type=int, help="timed reports per case (default 200)")
    parser.add_argument("--warmup", type=int, help="untimed reports per case first (default 20)")
    parser.add_argument("--duration", type=float, help="seconds per throughput run (default 8)")
    parser.add_argument(
        "--run-warmup", type=float, help="untimed seconds of load before each run (default 2)"
    )
    parser.add_argument("--pairs", type=int, help="on/off run pairs per mode (default 6)")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument("--threads", type=int, default=4, help="threads (connections) each")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--modes",
        default="redis,database",
        help="where accounting counts, in order: redis and/or database",
    )
    add_server_arguments(
        parser, database="bench_usage", redis="Redis for the production path (required)"
    )
    args = parser.parse_args(argv)
    quick = {
        "hours": 24 * 30,
        "files": 1_000,
        "requests": 20,
        "warmup": 3,
        "duration": 2.0,
        "run_warmup": 1.0,
        "pairs": 1,
    }
    full = {
        "hours": 365 * 24,
        "files": 5_000,
        "requests": 200,
        "warmup": 20,
        "duration": 8.0,
        "run_warmup": 2.0,
        "pairs": 6,
    }
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    if not set(args.modes) <= {"redis", "database"} or not args.modes:
        parser.error("--modes takes redis and/or database")
    if not 24 <= args.hours <= 365 * 24:
        parser.error("--hours must be 24 to 8760")
    return args


def log(message: str) -> None:
    print(f"[bench-usage {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- the load generator (its own processes) ------------------------------------------------------


def load_process(spec: dict[str, Any]) -> dict[str, Any]:
    """GET ``spec['path']`` from ``spec['threads']`` threads, each on its own kept-alive connection,
    until ``end_at``; count the answers completed in ``[start_at, end_at)`` (Unix times)."""
    start_at, end_at = spec["start_at"], spec["end_at"]
    headers = {"Authorization": f"Bearer {spec['key']}"}
    counts = [0] * spec["threads"]
    latencies: list[list[float]] = [[] for _ in range(spec["threads"])]
    failures: list[str] = []
    first_sent: list[float] = []

    def drive(index: int) -> None:
        conn = http.client.HTTPConnection(spec["host"], spec["port"], timeout=60)
        try:
            while not failures:
                sent = time.time()
                if sent >= end_at:
                    return
                if not first_sent:
                    first_sent.append(sent)
                conn.request("GET", spec["path"], headers=headers)
                response = conn.getresponse()
                body = response.read()
                done = time.time()
                if response.status != 200:
                    failures.append(f"HTTP {response.status}: {body[:300]!r}")
                    return
                if start_at <= done < end_at:
                    counts[index] += 1
                    if sent >= start_at:
                        latencies[index].append(done - sent)
        except Exception as exc:
            failures.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()

    threads = [threading.Thread(target=drive, args=(i,)) for i in range(spec["threads"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if first_sent and first_sent[0] > start_at - 0.5:
        failures.append(f"started {first_sent[0] - start_at:+.2f} s from the window: no warm-up")
    return {
        "completed": sum(counts),
        "latencies": [value for each in latencies for value in each],
        "failures": failures[:3],
    }


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU busy and in all, summed over the machine's CPUs, from /proc/stat."""
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    total = sum(fields[:8])  # user nice system idle iowait irq softirq steal
    idle = fields[3] + fields[4]
    return (total - idle) / ticks, total / ticks


def processes_cpu() -> dict[int, tuple[str, float]]:
    """Every process's name and CPU seconds (user + system) so far, from /proc."""
    ticks = os.sysconf("SC_CLK_TCK")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            with open(f"/proc/{entry}/stat") as stat:
                head, _, tail = stat.read().rpartition(")")
            fields = tail.split()
            found[int(entry)] = (
                head.partition("(")[2],
                (int(fields[11]) + int(fields[12])) / ticks,
            )
    return found


@dataclass
class Load:
    """One throughput run: req/s over the window and where the machine's CPU went."""

    processes: int
    rps: float
    completed: int
    busy_cpu: float  # CPU seconds of the whole machine in the window
    all_cpu: float  # the window times the CPUs
    cpu: dict[str, float]  # CPU seconds in the window: client, workers, postgres, redis, other
    per_worker: list[float]  # CPU seconds of each gunicorn worker in the window
    duration: float
    latencies: list[float]

    @property
    def workers_busy(self) -> str:
        return ", ".join(f"{seconds / self.duration:.0%}" for seconds in self.per_worker)

    @property
    def client_share(self) -> float:
        return self.cpu["client"] / self.all_cpu

    @property
    def busy_share(self) -> float:
        return self.busy_cpu / self.all_cpu

    def per_answer_us(self, part: str) -> float:
        return self.cpu[part] / max(1, self.completed) * 1e6

    @property
    def other_share(self) -> float:
        return self.cpu["other"] / self.all_cpu

    @property
    def service_us(self) -> float:
        """CPU microseconds per answer of the service: its workers, PostgreSQL and Redis."""
        return sum(self.per_answer_us(part) for part in ("workers", "postgres", "redis"))


def median_us(loads: list[Load], part: str) -> float:
    """The median over ``loads`` of ``part``'s CPU microseconds per answer."""
    return statistics.median(load.per_answer_us(part) for load in loads)


def cpu_split(
    before: dict[int, tuple[str, float]],
    after: dict[int, tuple[str, float]],
    workers: set[int],
    clients: set[int],
    busy: float,
) -> dict[str, float]:
    """CPU seconds between two ``processes_cpu`` snapshots, by kind of process; ``other`` is the
    rest of the machine's busy time (other processes, the kernel's own, processes that ended)."""
    split = dict.fromkeys(["client", "workers", "postgres", "redis"], 0.0)
    for pid, (name, seconds) in after.items():
        if pid not in before or before[pid][0] != name:
            continue
        used = seconds - before[pid][1]
        if pid in clients:
            split["client"] += used
        elif pid in workers:
            split["workers"] += used
        elif name == "postgres":
            split["postgres"] += used
        elif name.startswith("redis-server"):
            split["redis"] += used
    split["other"] = max(0.0, busy - sum(split.values()))
    return split


# -- the service's own process (the bench's subprocess, in the service's environment) -----------


def in_service(task: str, payload: dict[str, Any]) -> Any:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "storage_service.settings")
    import django

    django.setup()
    if task == "keys":
        return make_keys(payload["names"], payload["plan"])
    if task == "profile":
        return profile_reports(payload["org"], payload["cases"], payload["repeat"])
    if task == "count":
        return time_counting(payload["org"], payload["calls"])
    raise SystemExit(f"unknown task {task}")


def make_keys(names: list[str], plan: str) -> dict[str, list[str]]:
    """Organisations named ``names`` with one key each, as ``createkey`` makes them (all
    permissions): ``{name: [org id, secret]}``."""
    from storage_service import clock
    from storage_service.accounts import permissions, services

    made = {}
    for name in names:
        org, _ = services.organisation_get_or_create(name=name, plan=plan)
        _, secret = services.key_create(
            org=org, name=name, permissions=permissions.ALL, expires_at=None, now=clock.now()
        )
        made[name] = [org.pk, secret]
    return made


def profile_reports(
    org_id: str, cases: dict[str, dict[str, str]], repeat: int
) -> dict[str, dict[str, Any]]:
    """Time each case's report in process: the window, the report (SQL included) and its JSON; and
    EXPLAIN ANALYZE the SQL it ran."""
    from django.db import connection, transaction

    from storage_service import clock
    from storage_service.accounts.models import Organisation
    from storage_service.api import EnvelopeRenderer
    from storage_service.billing.report import usage_report
    from storage_service.billing.windows import usage_window
    from tests.bench.explain import captured_sql

    org = Organisation.objects.get(pk=org_id)
    renderer = EnvelopeRenderer()
    out: dict[str, dict[str, Any]] = {}
    for name, params in cases.items():
        now = clock.now()
        window = usage_window(params, now=now)

        def build(window=window, now=now) -> dict:
            return usage_report(org=org, window=window, now=now.timestamp())

        captured = captured_sql(build)
        times: dict[str, list[float]] = {"window": [], "report": [], "render": []}
        for _ in range(repeat):
            started = time.perf_counter()
            window = usage_window(params, now=now)
            windowed = time.perf_counter()
            data = usage_report(org=org, window=window, now=now.timestamp())
            reported = time.perf_counter()
            body = renderer.render({"success": True, "data": data, "error": None})
            rendered = time.perf_counter()
            times["window"].append(windowed - started)
            times["report"].append(reported - windowed)
            times["render"].append(rendered - reported)
        queries = []
        # In one transaction, as the report runs them: its settings (SET LOCAL) apply, and
        # only its queries are explained.
        with transaction.atomic(), connection.cursor() as cursor:
            for item in captured:
                if not item["sql"].lstrip().upper().startswith("SELECT"):
                    cursor.execute(item["sql"], item["params"])
                    continue
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {item['sql']}", item["params"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
                # compose_sql is PostgreSQL's, which django-stubs does not declare.
                sql = connection.ops.compose_sql(item["sql"], item["params"])  # type: ignore[attr-defined]
                queries.append({"sql": sql, "ms": item["ms"], "plan": plan})
        out[name] = {
            "ms": {key: statistics.median(values) * 1000 for key, values in times.items()},
            "queries": queries,
            "body_bytes": len(body),
            "buckets": len(window.buckets),
        }
    return out


def time_counting(org_id: str, calls: int) -> dict[str, dict[str, float]]:
    """Wall and CPU microseconds of counting one request against the rate limit alone, and
    against the rate limit with its usage (``counting.count_with_limit``), in Redis and in the
    database: one thread, in process, after a warm-up."""
    from django.conf import settings

    from shared import rate_limits
    from storage_service.accounts.rate_limiting import counter
    from storage_service.billing import counting

    def timed(run: Any, calls: int) -> dict[str, float]:
        for _ in range(calls // 10):
            run()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            run()
        return {
            "wall": (time.perf_counter() - wall) / calls * 1e6,
            "cpu": (time.process_time() - cpu) / calls * 1e6,
            "calls": calls,
        }

    bucket = f"org:{org_id}"
    window = rate_limits.window_at(time.time())

    def limit() -> None:
        counter().incr(bucket, window)

    def limit_and_usage() -> None:
        usage = counting.Count(org_id=org_id, label="GET /files", at=time.time())
        counting.count_with_limit(counter(), bucket=bucket, window=window, usage=usage)

    out = {
        "redis limit": timed(limit, calls),
        "redis limit+usage": timed(limit_and_usage, calls),
    }
    redis_url, settings.REDIS_URL = settings.REDIS_URL, ""
    try:
        out["database limit"] = timed(limit, calls // 4)
        out["database limit+usage"] = timed(limit_and_usage, calls // 4)
    finally:
        settings.REDIS_URL = redis_url
    return out


# -- the run -------------------------------------------------------------------------------------


@dataclass
class Case:
    key: str
    what: str
    params: dict[str, str]
    target_ms: float | None
    buckets: int
    min_requests: int
    p50: float = 0.0
    p95: float = 0.0
    base_p50: float = 0.0
    base_p95: float = 0.0
    samples: list[float] = field(default_factory=list)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work = VAR / "bench-usage.work"
        self.database = Database(args.database_admin_url, args.database)
        self.namespace = f"bench-usage-{secrets.token_hex(4)}"
        self.secret_key = secrets.token_urlsafe(48)
        self.servers: dict[str, Gunicorn] = {}
        self.results = Results()
        self.org_id = ""
        self.keys: dict[str, list[str]] = {}
        self.seeded: seed.Seeded | None = None
        self.last_hour = 0
        self.cases: list[Case] = []
        self.profile: dict[str, dict[str, Any]] = {}

    # setup and teardown

    def __enter__(self) -> Bench:
        shutil.rmtree(self.work, ignore_errors=True)  # a leftover of an interrupted run
        (self.work / "media").mkdir(parents=True)
        try:
            if not redis_reachable(self.args.redis_url):
                raise SystemExit(f"Redis is not reachable at {self.args.redis_url}")
            log(f"creating database {self.database.name}")
            self.database.create()
        except BaseException:
            shutil.rmtree(self.work, ignore_errors=True)
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if exc_type is not None:
            running = [s for s in self.servers.values() if s.process is not None]
            if running:
                FAILED_LOG.write_text("\n".join(s.log_tail(200) for s in running))
                log(f"gunicorn's log (kept in {FAILED_LOG.relative_to(ROOT)}), last lines:")
                print(running[-1].log_tail(), file=sys.stderr)
        for name in list(self.servers):
            self.stop_server(name)
        with contextlib.suppress(Exception):
            self.database.drop()
        redis_forget(self.args.redis_url, self.namespace)
        shutil.rmtree(self.work, ignore_errors=True)
        log("cleaned up (servers stopped, database dropped, Redis keys and work directory gone)")

    def env(self, *, redis: bool = True, accounting: bool = True) -> dict[str, str]:
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("GUNICORN", "STORAGE_", "DJANGO_"))
            and name not in {"FILE_UPLOAD_TEMP_DIR", "MEDIA_ROOT", "API_KEY_PEPPER"}
        }
        env.update(
            DATABASE_URL=self.database.django_url,
            REDIS_URL=self.args.redis_url if redis else "",
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            MEDIA_ROOT=str(self.work / "media"),
            VAR_DIR=str(self.work / "var"),
            RATE_LIMIT_NAMESPACE=self.namespace,
            WEB_CONCURRENCY=str(self.args.workers),
            LOG_LEVEL="WARNING",
            STORAGE_USAGE_ACCOUNTING="true" if accounting else "false",
        )
        return env

    def in_service(self, task: str, payload: dict[str, Any]) -> Any:
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.usage", "in-service", task, json.dumps(payload)],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"in-service {task} failed:\n{done.stderr[-3000:]}")
        return json.loads(done.stdout)

    def start_server(self, name: str, *, redis: bool, accounting: bool, key: str) -> Gunicorn:
        port = free_port()
        server = Gunicorn(
            self.env(redis=redis, accounting=accounting), port, self.work / f"gunicorn-{name}.log"
        )
        self.servers[name] = server
        log(f"starting gunicorn '{name}' on 127.0.0.1:{port}")
        server.start("/v1/billing", {"Authorization": f"Bearer {key}"})
        return server

    def stop_server(self, name: str) -> None:
        server = self.servers.pop(name, None)
        if server is not None:
            log(f"stopping gunicorn '{name}'")
            server.stop()

    def api(self, server: Gunicorn, key_name: str) -> client.Api:
        return client.Api("127.0.0.1", server.port, self.keys[key_name][1])

    # seeding

    def setup(self) -> None:
        env = self.env()
        log("migrating")
        self.org_id, secret = migrate_with_bench_key(env, self.database)
        self.keys["bench"] = [self.org_id, secret]
        names = ["empty", *self.load_org_names()]
        log(f"creating {len(names)} more organisations with a key each")
        self.keys.update(self.in_service("keys", {"names": names, "plan": "production"}))
        self.seed()

    def load_org_names(self) -> list[str]:
        names = []
        for mode in self.args.modes:
            names.append(f"{mode}-warmup")
            names += [f"{mode}-{i}" for i in range(2 * self.args.pairs)]
            if mode == self.args.modes[0]:
                names += [f"{mode}-half", f"{mode}-usual", f"{mode}-double"]
        return names

    def seed(self) -> None:
        args = self.args
        log(f"seeding {args.files:,} files in SQL (tests/bench/seed.py)")
        started = time.perf_counter()
        with self.database.connect() as conn:
            self.seeded = seed.seed(conn, org_id=self.org_id, files=args.files)
            now = time.time()
            self.last_hour = int(now) - int(now) % HOUR
            first_hour = self.last_hour - (args.hours - 1) * HOUR
            log(f"seeding {args.hours:,} hours x {len(LABELS)} labels of request rollups")
            conn.execute("SELECT setseed(0.365)")
            conn.execute(
                ROLLUPS_SQL,
                {
                    "org": self.org_id,
                    "labels": [label[0] for label in LABELS],
                    "shares": [label[1] for label in LABELS],
                    "ups": [label[2] for label in LABELS],
                    "downs": [label[3] for label in LABELS],
                    "last": self.last_hour,
                    "hours": args.hours,
                    "per_hour": args.per_hour,
                },
            )
            conn.execute(
                STORAGE_SQL,
                {
                    "org": self.org_id,
                    "first": first_hour,
                    "last": self.last_hour,
                    "categories": CATEGORIES,
                    "churn": 0.25,
                },
            )
            copies = [org for name, (org, _) in self.keys.items() if name not in {"bench", "empty"}]
            log(f"copying the files to {len(copies)} organisations for the throughput runs")
            for org in copies:
                conn.execute(COPY_FILES_SQL, {"org": org, "source": self.org_id})
                conn.execute(COUNTERS_SQL, {"org": org})
            for table in [
                "billing_request_rollup",
                "billing_storage_change",
                "files_file",
                "files_filetally",
                "accounts_organisation",
                "accounts_apikey",
            ]:
                conn.execute(f"VACUUM (ANALYZE) {table}")
            conn.execute("CHECKPOINT")  # now, not in the middle of a timed run
            self.check_seed(conn, first_hour)
        log(f"seeded in {time.perf_counter() - started:.0f} s")

    def check_seed(self, conn: Any, first_hour: int) -> None:
        rows, hours, requests, low, high = conn.execute(
            "SELECT count(*), count(DISTINCT hour), sum(requests), min(requests), max(requests) "
            "FROM billing_request_rollup WHERE organisation_id = %s",
            [self.org_id],
        ).fetchone()
        per_hour = conn.execute(
            "SELECT min(s), max(s) FROM (SELECT sum(requests) AS s FROM billing_request_rollup "
            "WHERE organisation_id = %s GROUP BY hour) AS t",
            [self.org_id],
        ).fetchone()
        changes, change_hours, stored, files = conn.execute(
            "SELECT count(*), count(DISTINCT hour), sum(bytes), sum(files) "
            "FROM billing_storage_change WHERE organisation_id = %s",
            [self.org_id],
        ).fetchone()
        used, count = conn.execute(
            "SELECT storage_used, file_count FROM accounts_organisation WHERE id = %s",
            [self.org_id],
        ).fetchone()
        if tuple(per_hour) != (self.args.per_hour, self.args.per_hour):
            raise RuntimeError(f"hours sum to {per_hour}, not {self.args.per_hour}")
        if (stored, files) != (used, count):
            raise RuntimeError(f"storage series ends at {stored}/{files}, counters {used}/{count}")
        (rollup_mb,) = conn.execute(
            "SELECT pg_total_relation_size('billing_request_rollup') / 1e6"
        ).fetchone()
        assert self.seeded is not None
        start = datetime.fromtimestamp(first_hour, UTC)
        self.results.notes.append(
            f"Seeded in SQL for organisation 'bench' (production plan): {rows:,} request rollups, "
            f"{hours:,} hours from {start:%Y-%m-%d %H:00} UTC to the current hour x {len(LABELS)} "
            f"labels, {requests:,} requests ({self.args.per_hour:,} every hour; {low:,} to "
            f"{high:,} per label and hour; the table with its indexes {rollup_mb:.0f} MB); "
            f"{changes:,} storage changes in {change_hours:,} hours ending at the counters "
            f"({count:,} files, {used / 1e9:.1f} GB); {self.seeded.live_files:,} live files "
            f"(+{self.seeded.trashed_files:,} in the trash) in {self.seeded.folders:,} folders as "
            "tests/bench/seed.py makes them. Each throughput run's organisation holds a copy of "
            "the live files; then VACUUM ANALYZE."
        )

    # the measurements

    def run(self) -> Results:
        self.setup()
        first = True
        for mode in self.args.modes:
            redis = mode == "redis"
            warm_key = self.keys[f"{mode}-warmup"][1]
            on = self.start_server(f"{mode}-on", redis=redis, accounting=True, key=warm_key)
            off = self.start_server(f"{mode}-off", redis=redis, accounting=False, key=warm_key)
            if first:
                self.describe_setup()
            if redis:
                self.measure_reports(on)
            self.measure_throughput(mode, on, off, scaling=first)
            self.stop_server(f"{mode}-on")
            self.stop_server(f"{mode}-off")
            first = False
        if "redis" in self.args.modes:
            self.profile_reports()
        return self.results

    def describe_setup(self) -> None:
        with self.database.connect() as conn:
            (pg_version,) = one_row(conn.execute("SHOW server_version"))
            (shared_buffers,) = one_row(conn.execute("SHOW shared_buffers"))
            (sync_commit,) = one_row(conn.execute("SHOW synchronous_commit"))
        threads = self.env().get("GUNICORN_THREADS", "4")
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        self.results.header = [
            f"Usage accounting benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
            f"commit {commit or '?'}; {os.cpu_count()} cores, Python {platform.python_version()}"
            + (" (--quick)" if self.args.quick else ""),
            f"Server: gunicorn gthread, {self.args.workers} workers x {threads} threads, "
            f"127.0.0.1; PostgreSQL {pg_version} (shared_buffers {shared_buffers}, "
            f"synchronous_commit {sync_commit}); Redis {self.args.redis_url}",
            f"Load: {self.args.clients} client processes x {self.args.threads} threads, one "
            f"kept-alive connection each, {self.args.run_warmup:g} s warm-up + "
            f"{self.args.duration:g} s per run, {self.args.pairs} on/off pairs per mode",
        ]

    # 1. the usage report

    def report_cases(self) -> list[Case]:
        hours = self.args.hours
        end = datetime.fromtimestamp(self.last_hour + HOUR, UTC)
        start = end - timedelta(days=365)
        stamp = "%Y-%m-%dT%H:%M:%SZ"
        return [
            Case(
                "year",
                "usage period=year (by month)",
                {"period": "year"},
                None,
                0,
                hours * self.args.per_hour,
            ),
            Case(
                "year-hourly",
                "usage 365-day start/end, granularity=hour",
                {"start": start.strftime(stamp), "end": end.strftime(stamp), "granularity": "hour"},
                YEAR_HOURLY_P95_MS,
                365 * 24,
                hours * self.args.per_hour,
            ),
            Case(
                "day", "usage period=day (by hour)", {"period": "day"}, DAY_P95_MS, 24, 0
            ),  # the window may have moved on an hour since seeding: no fixed total
        ]

    def measure_reports(self, server: Gunicorn) -> None:
        args = self.args
        self.cases = self.report_cases()
        bench_api, empty_api = self.api(server, "bench"), self.api(server, "empty")
        for case in self.cases:
            for who, api in [("empty organisation", empty_api), ("bench", bench_api)]:
                log(f"timing {case.what}, {who}: {args.warmup} + {args.requests} GETs")
                samples = client.timed_gets(
                    api,
                    USAGE_PATH,
                    case.params,
                    warmup=args.warmup,
                    count=args.requests,
                    check=self.report_check(case, empty=api is empty_api),
                )
                p50, p95 = percentile(samples, 0.5) * 1000, percentile(samples, 0.95) * 1000
                if api is empty_api:
                    case.base_p50, case.base_p95 = p50, p95
                else:
                    case.p50, case.p95, case.samples = p50, p95, samples
        for case in self.cases:
            if case.target_ms is None:
                target, verdict = "(none)", ""
            else:
                target = f"p95 <= {case.target_ms:.0f} ms"
                verdict = self.results.verdict(case.p95 <= case.target_ms, case.what)
            self.results.rows.append(
                Row(
                    case.what,
                    f"p50 {case.p50:.1f} ms, p95 {case.p95:.1f} ms",
                    target,
                    verdict,
                    f"{case.p50 / case.base_p50:.1f}x / {case.p95 / case.base_p95:.1f}x the "
                    f"empty organisation's (p50 {case.base_p50:.1f}, p95 {case.base_p95:.1f} ms); "
                    f"max {max(case.samples) * 1000:.1f} ms",
                )
            )
        self.results.notes.append(
            f"Reports: GET {USAGE_PATH}, {args.requests} timed requests per case after "
            f"{args.warmup} untimed, one client on one kept-alive connection, against the server "
            "with accounting on and REDIS_URL set; the time covers sending the request and "
            "reading the whole body. Each answer's first is checked (buckets, totals, labels, the "
            "storage level equal to the counters). The baseline is the same query for an "
            "organisation with no usage (same buckets, no rows), timed the same way just before."
        )

    def report_check(self, case: Case, *, empty: bool) -> Any:
        assert self.seeded is not None
        seeded = self.seeded

        def check(data: dict[str, Any]) -> None:
            timeline = data["timeline"]
            problems = []
            if case.buckets and len(timeline) != case.buckets:
                problems.append(f"{len(timeline)} buckets, not {case.buckets}")
            total = data["summary"]["requests"]["total"]
            if not empty:
                if total < case.min_requests or total == 0:
                    problems.append(f"requests.total {total} < {case.min_requests}")
                if len(data["breakdown"]["byEndpoint"]) < len(LABELS):
                    problems.append(f"{len(data['breakdown']['byEndpoint'])} labels")
                if data["summary"]["files"]["total"] != seeded.live_files:
                    problems.append(
                        f"files.total {data['summary']['files']['total']} != {seeded.live_files}"
                    )
                if data["summary"]["storage"]["total"] != seeded.storage_used:
                    problems.append(
                        f"storage.total {data['summary']['storage']['total']} "
                        f"!= {seeded.storage_used}"
                    )
            if problems:
                raise RuntimeError(f"{case.what}: {'; '.join(problems)}")

        return check

    def profile_reports(self) -> None:
        log("timing the reports in process, and EXPLAIN ANALYZE of their SQL")
        self.profile = self.in_service(
            "profile",
            {
                "org": self.org_id,
                "cases": {case.key: case.params for case in self.cases},
                "repeat": 3 if self.args.quick else 10,
            },
        )
        for case in self.cases:
            found = self.profile[case.key]
            ms = found["ms"]
            sql = sum(q["ms"] for q in found["queries"])
            slowest = max(found["queries"], key=lambda q: q["ms"])
            self.results.rows.append(
                Row(
                    f"  in process: {case.key}",
                    f"{ms['window'] + ms['report'] + ms['render']:.1f} ms",
                    note=f"window {ms['window']:.1f} + report {ms['report']:.1f} (SQL "
                    f"{sql:.1f} in {len(found['queries'])} queries, slowest {slowest['ms']:.1f}) "
                    f"+ JSON {ms['render']:.1f} ms; {found['buckets']:,} buckets, "
                    f"{found['body_bytes'] / 1e6:.2f} MB",
                )
            )
        try:
            counted = self.in_service(
                "count", {"org": self.keys["empty"][0], "calls": 500 if self.args.quick else 4000}
            )
        except RuntimeError as exc:  # a help for reading the throughput, not a result
            self.results.notes.append(f"! No in-process count timing: {str(exc)[-300:]}")
            counted = {}
        if counted:

            def timing(key: str) -> str:
                return f"{counted[key]['cpu']:.0f} us CPU ({counted[key]['wall']:.0f} wall)"

            extra = counted["redis limit+usage"]["cpu"] - counted["redis limit"]["cpu"]
            self.results.rows.append(
                Row(
                    "  in process: counting one request",
                    f"{extra:+.0f} us CPU",
                    note=f"Redis: the rate limit alone {timing('redis limit')}, with the usage "
                    f"(counting.count_with_limit) {timing('redis limit+usage')}; the database: "
                    f"{timing('database limit')} and {timing('database limit+usage')} (one "
                    f"thread, {counted['redis limit']['calls']:,} calls)",
                )
            )
        self.results.notes.append(
            "In process: the report built by the service's own functions in a process with the "
            "service's settings (medians of repeated builds): the window (buckets), usage_report "
            "(its SQL, timed in the connection, and the Python around it), and the envelope "
            "rendered to JSON. What HTTP adds beyond that: middleware, authentication, the rate "
            "limit, the flush of counts waiting in Redis, gunicorn. The plans: "
            "var/bench-usage-plans.txt."
        )

    # 2. throughput

    def measure_throughput(self, mode: str, on: Gunicorn, off: Gunicorn, *, scaling: bool) -> None:
        args = self.args
        warm = self.keys[f"{mode}-warmup"][1]
        for name, server in [("on", on), ("off", off)]:
            log(f"{mode}: warming the accounting-{name} server up")
            self.load(server, warm, args.clients, warmup=args.run_warmup, duration=1.0)
        pairs: list[dict[str, Load]] = []
        orgs = iter(f"{mode}-{i}" for i in range(2 * args.pairs))
        for number in range(args.pairs):
            order = [("on", on), ("off", off)] if number % 2 == 0 else [("off", off), ("on", on)]
            pair = {}
            for name, server in order:
                result = self.load(server, self.keys[next(orgs)][1], args.clients)
                log(
                    f"{mode} pair {number + 1}/{args.pairs}, accounting {name}: "
                    f"{result.rps:.0f} req/s (client CPU {result.client_share:.0%} of the machine,"
                    f" other {result.other_share:.0%}, machine busy {result.busy_share:.0%}; "
                    f"workers {result.workers_busy} of a CPU)"
                )
                pair[name] = result
            pairs.append(pair)
        self.throughput_rows(mode, pairs)
        if scaling:
            self.client_check(mode, off)

    def load(
        self,
        server: Gunicorn,
        key: str,
        processes: int,
        *,
        warmup: float | None = None,
        duration: float | None = None,
    ) -> Load:
        warmup = self.args.run_warmup if warmup is None else warmup
        duration = self.args.duration if duration is None else duration
        start_at = time.time() + 0.5 + warmup  # 0.5 s to start the processes
        end_at = start_at + duration
        spec = {
            "host": "127.0.0.1",
            "port": server.port,
            "key": key,
            "path": LIST_PATH,
            "threads": self.args.threads,
            "start_at": start_at,
            "end_at": end_at,
        }
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.bench.usage", "load", json.dumps(spec)],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(processes)
        ]
        try:
            time.sleep(max(0.0, start_at - time.time()))
            busy0, all0 = machine_cpu()
            before = processes_cpu()
            time.sleep(max(0.0, end_at - time.time()))
            busy1, all1 = machine_cpu()
            after = processes_cpu()
            outputs = [json.loads(proc.communicate(timeout=120)[0]) for proc in procs]
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        failures = [failure for out in outputs for failure in out["failures"]]
        if failures or any(proc.returncode for proc in procs):
            raise RuntimeError(f"load run failed: {failures[:3]}")
        completed = sum(out["completed"] for out in outputs)
        cpu = cpu_split(
            before,
            after,
            set(server.worker_pids()),
            {proc.pid for proc in procs},
            busy1 - busy0,
        )
        workers = server.worker_pids()
        return Load(
            per_worker=[
                after[pid][1] - before[pid][1] for pid in workers if pid in before and pid in after
            ],
            processes=processes,
            duration=duration,
            rps=completed / duration,
            completed=completed,
            busy_cpu=busy1 - busy0,
            all_cpu=all1 - all0,
            cpu=cpu,
            latencies=[value for out in outputs for value in out["latencies"]],
        )

    def throughput_rows(self, mode: str, pairs: list[dict[str, Load]]) -> None:
        where = "Redis (production)" if mode == "redis" else "the database (no REDIS_URL; upserts)"
        runs = {name: [pair[name] for pair in pairs] for name in ("on", "off")}
        medians = {name: statistics.median(r.rps for r in loads) for name, loads in runs.items()}
        for name in ("off", "on"):
            loads = runs[name]
            latencies = [value for r in loads for value in r.latencies]
            rate = medians[name]
            value = f"{rate:.0f} req/s"
            if name == "on":
                value += f" ({rate / medians['off']:.1%})"
            split = ", ".join(
                f"{part} {median_us(loads, part):.0f}"
                for part in ("workers", "postgres", "redis", "client", "other")
            )
            self.results.rows.append(
                Row(
                    f"GET /files throughput, accounting {name}, {mode}",
                    value,
                    note=f"runs {', '.join(f'{r.rps:.0f}' for r in loads)}; under load p50 "
                    f"{percentile(latencies, 0.5) * 1000:.1f} ms, p95 "
                    f"{percentile(latencies, 0.95) * 1000:.1f} ms; machine busy "
                    f"{statistics.median(r.busy_share for r in loads):.0%}; CPU per answer (us): "
                    f"{split}",
                )
            )
        cost = 1 - medians["on"] / medians["off"]
        paired = [1 - pair["on"].rps / pair["off"].rps for pair in pairs]
        clean = [
            c
            for c, pair in zip(paired, pairs, strict=True)
            if max(r.other_share for r in pair.values()) <= OTHER_CPU_SHARE
        ]
        service = {name: statistics.median(r.service_us for r in runs[name]) for name in runs}
        shifts = ", ".join(
            f"{part} {median_us(runs['on'], part) - median_us(runs['off'], part):+.0f}"
            for part in ("workers", "postgres", "redis")
        )
        by_pair = (
            f"pair by pair, in order, {', '.join(f'{c:.1%}' for c in paired)} (median "
            f"{statistics.median(paired):.1%}"
        )
        if clean:
            by_pair += f"; of the {len(clean)} undisturbed pairs {statistics.median(clean):.1%}"
        by_pair += ")"
        what = f"accounting cost, {mode}: 1 - on/off"
        self.results.rows.append(
            Row(
                what,
                f"{cost:.1%}",
                f"<= {ACCOUNTING_COST:.0%}",
                self.results.verdict(cost <= ACCOUNTING_COST, what),
                f"counts in {where}; {by_pair}; service CPU per answer "
                f"{service['on'] - service['off']:+.0f} us "
                f"({service['on'] / service['off'] - 1:+.1%}: {shifts})",
            )
        )
        disturbed = [(n, r) for n, pair in enumerate(pairs, 1) for r in pair.values()]
        disturbed = [(n, r) for n, r in disturbed if r.other_share > OTHER_CPU_SHARE]
        if disturbed:
            self.results.notes.append(
                f"! {mode}: in {len(disturbed)} of {2 * len(pairs)} runs (of pair number "
                f"{', '.join(str(n) for n in sorted({n for n, _ in disturbed}))}) more than "
                f"{OTHER_CPU_SHARE:.0%} of the machine's CPU went to none of the client, the "
                "workers, PostgreSQL and Redis: other work on the machine competed with the "
                "server. Compare within pairs, and the service CPU per answer, rather than "
                "figures across runs."
            )

    def client_check(self, mode: str, server: Gunicorn) -> None:
        """Half, the usual and twice the client processes against the accounting-off server (the
        fastest), one run after the other."""
        args = self.args
        checks = [("half", max(1, args.clients // 2))] if args.clients >= 2 else []
        checks += [("usual", args.clients), ("double", 2 * args.clients)]
        figures = {}
        for name, processes in checks:
            result = self.load(server, self.keys[f"{mode}-{name}"][1], processes)
            log(
                f"{mode}, accounting off, {processes} client processes: {result.rps:.0f} req/s "
                f"(workers {result.workers_busy} of a CPU)"
            )
            figures[name] = (processes, result)
        usual = figures["usual"][1]
        self.results.rows.append(
            Row(
                f"client check ({mode}, off): req/s by processes",
                ", ".join(f"{n}: {r.rps / usual.rps:.0%}" for n, r in figures.values()),
                note=f"{', '.join(f'{n} -> {r.rps:.0f} req/s' for n, r in figures.values())}, "
                f"one run after the other; with {args.clients} the client used "
                f"{usual.client_share:.0%} of the machine's CPU while it was "
                f"{usual.busy_share:.0%} busy (other work {usual.other_share:.0%})",
            )
        )
        self.results.notes.append(
            "Throughput: GET " + LIST_PATH + " with the key of an organisation made for the run "
            "(its own copy of the files, so the plan's 100,000 requests an hour never bind; every "
            "answer must be 200), counted over the window only, after the warm-up; the two servers "
            "run side by side, alike but for STORAGE_USAGE_ACCOUNTING, and the runs alternate "
            "on/off (off first in every other pair). The medians are compared; 'pair by pair' is "
            "each pair's own cost, 'undisturbed' the pairs in which other work took at most "
            f"{OTHER_CPU_SHARE:.0%} of the machine. CPU per answer is read from /proc over the "
            "window: the gunicorn workers, PostgreSQL's processes, Redis, the client processes, "
            "and 'other', the rest of the machine's busy time; 'service CPU' is the first three. "
            "The client check drives the accounting-off server with half, the usual and twice "
            "the client processes: when that moves req/s by no more than the noise between runs, "
            "the server, not the client, sets the pace. On a machine this small client and server "
            "share the cores, so the client's CPU share is what the server could have had more."
        )


def plans_text(bench: Bench) -> str:
    out = []
    for case in bench.cases:
        found = bench.profile.get(case.key)
        if not found:
            continue
        sql = sum(q["ms"] for q in found["queries"])
        heading = f"=== {case.what}: p95 {case.p95:.1f} ms over HTTP; SQL {sql:.1f} ms in process"
        out += queries_text(heading, found["queries"])
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["load"]:  # a load generator process
        json.dump(load_process(json.loads(argv[1])), sys.stdout)
        return 0
    if argv[:1] == ["in-service"]:  # the bench's own subprocess, in the service's environment
        json.dump(in_service(argv[1], json.loads(argv[2])), sys.stdout)
        return 0
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, terminate_as_exit)
    started = time.perf_counter()
    with single_run_lock(VAR / "bench-usage.lock"), Bench(args) as bench:
        results = bench.run()
    results.notes.append(f"Whole run: {time.perf_counter() - started:.0f} s (seeding included).")
    table = results.table()
    over = set(results.over_target)
    plans = plans_text(bench) if bench.profile else ""
    if over & {case.what for case in bench.cases}:
        table += "\nEXPLAIN ANALYZE of the report's SQL (var/bench-usage-plans.txt)\n\n" + plans
    REPORT.write_text(table)
    FAILED_LOG.unlink(missing_ok=True)  # a failed run's server log, now out of date
    if plans:
        PLANS.write_text(plans)
    print(table, end="")
    log(f"wrote {REPORT.relative_to(ROOT)}" + (f" and {PLANS.relative_to(ROOT)}" if plans else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
