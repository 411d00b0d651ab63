"""The memory service benchmark (``make bench-memory``).

Against gunicorn (the deploy config, 2 gthread workers) on loopback and a throwaway PostgreSQL
database, it posts statements from tests/bench/memory_corpus.py to POST /api/v1/memories (batches
of 100, one client) until one organisation holds 100,000 memories (the service folds about half
of them into held ones), then times, each on one kept-alive connection after a warm-up:

1. POST /api/v1/recall: 1-4 corpus terms, natural-language questions, queries that match nothing;
2. POST /api/v1/turns: statements, statements with small talk, questions, restatements;
3. GET /api/v1/memories?limit=20, the first page;

and reads the workers' peak RSS (``VmHWM``). The database and the server are thrown away at the
end, also on failure or Ctrl-C. The table goes to stdout and var/bench-memory.txt; the EXPLAIN
ANALYZE of the SQL of recall (common-term queries and the slowest one) and of the list to
var/bench-memory-plans.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import itertools
import os
import platform
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from tests.bench import client
from tests.bench import memory_corpus as corpus
from tests.bench.client import Api, ApiError
from tests.bench.explain import captured_sql
from tests.bench.server import (
    ROOT,
    Database,
    Gunicorn,
    free_port,
    manage,
    peak_rss_bytes,
    single_run_lock,
)
from tests.bench.storage import Results, Row, percentile, terminate_as_exit

MB = 1000 * 1000
VAR = ROOT / "var"
REPORT = VAR / "bench-memory.txt"
PLANS = VAR / "bench-memory-plans.txt"
FAILED_LOG = VAR / "bench-memory-gunicorn.log"
SERVICE = "memory_service"
API = "/api/v1"

# The targets, at 100,000 memories.
RECALL_P95_MS = 20.0
TURN_P95_MS = 30.0
# Seeding gives up when the service folds this many statements per one it keeps.
MAX_SENT_PER_HELD = 5
SEED_ATTEMPTS = 5


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000, help="memories to seed")
    parser.add_argument("--samples", type=int, default=300, help="timed requests per measure")
    parser.add_argument("--warmup", type=int, default=30, help="untimed requests per measure first")
    parser.add_argument("--batch", type=int, default=100, help="memories per seeding request")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--database-admin-url",
        default=os.environ.get(
            "BENCH_DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
        ),
        help="any database on the PostgreSQL server (the bench creates its own beside it)",
    )
    parser.add_argument("--database", default="bench_memory", help="throwaway database name")
    return parser.parse_args(argv)


def log(message: str) -> None:
    print(f"[bench-memory {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def call(
    api: Api, conn: http.client.HTTPConnection, method: str, path: str, payload: Any = None
) -> dict[str, Any]:
    """Send one JSON request under the API's mount on ``conn``; the answer has no envelope."""
    return client.call(api, conn, method, f"{API}{path}", payload, envelope=False)


def timed(
    api: Api, method: str, path: str, payloads: list[Any], warmup: list[Any]
) -> tuple[list[float], list[dict[str, Any]]]:
    """Send ``warmup`` then ``payloads`` on one connection; return the latter's times and answers.

    Each time covers sending the request and reading the whole body.
    """
    conn = api.connect()
    samples, answers = [], []
    try:
        for payload in warmup:
            call(api, conn, method, path, payload)
        for payload in payloads:
            started = time.perf_counter()
            answers.append(call(api, conn, method, path, payload))
            samples.append(time.perf_counter() - started)
    finally:
        conn.close()
    return samples, answers


def spread(samples: list[float]) -> str:
    """Return p50, p95 and max of ``samples`` (seconds) in milliseconds, as a note."""
    p50, p95 = percentile(samples, 0.50) * 1000, percentile(samples, 0.95) * 1000
    return f"p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {max(samples) * 1000:.1f} ms"


def breakdown(labels: list[str], samples: list[float], extra: Counter[str] | None = None) -> str:
    """Return the spread of ``samples`` per label, with ``extra[label]`` when given."""
    grouped: dict[str, list[float]] = defaultdict(list)
    for label, seconds in zip(labels, samples, strict=True):
        grouped[label].append(seconds)
    return "; ".join(
        f"{label} ({len(times)}{'' if extra is None else f', {extra[label]} with results'}): "
        f"{spread(times)}"
        for label, times in sorted(grouped.items())
    )


def settle(below: float = 0.8, at_most: float = 60) -> None:
    """Wait until the 1-minute load average, raised by seeding, falls ``below`` (or time is up)."""
    deadline = time.monotonic() + at_most
    log(f"waiting for the load average ({os.getloadavg()[0]:.2f}) to fall below {below}")
    while os.getloadavg()[0] >= below and time.monotonic() < deadline:
        time.sleep(2)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work = VAR / "bench-memory.work"
        self.database = Database(args.database_admin_url, args.database)
        self.server: Gunicorn | None = None
        self.results = Results()
        self.secret_key = secrets.token_urlsafe(48)
        self.plan_queries: list[str] = []
        self.failed = False  # a measure failed: gunicorn's log is kept

    # setup and teardown

    def __enter__(self) -> Bench:
        shutil.rmtree(self.work, ignore_errors=True)  # a leftover of an interrupted run
        self.work.mkdir(parents=True)
        log(f"creating database {self.database.name}")
        try:
            self.database.create()
        except BaseException:
            shutil.rmtree(self.work, ignore_errors=True)
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if self.server is not None:
            if exc_type is not None or self.failed:
                shutil.copyfile(self.server.log_path, FAILED_LOG)
                log(f"gunicorn's log (kept in {FAILED_LOG.relative_to(ROOT)}), last lines:")
                print(self.server.log_tail(), file=sys.stderr)
            log("stopping gunicorn")
            self.server.stop()
        with contextlib.suppress(Exception):
            self.database.drop()
        shutil.rmtree(self.work, ignore_errors=True)
        log("cleaned up (database dropped, work directory removed)")

    def env(self) -> dict[str, str]:
        # Nothing of the caller's own service settings: no model provider, no other database.
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("GUNICORN", "MEMORY_", "DJANGO_"))
            and name not in {"API_KEY_PEPPER", "REDIS_URL", "ALLOWED_HOSTS"}
        }
        env.update(
            DATABASE_URL=self.database.django_url,
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            VAR_DIR=str(self.work / "var"),
            WEB_CONCURRENCY=str(self.args.workers),
            LOG_LEVEL="WARNING",
        )
        return env

    def start(self) -> Api:
        env = self.env()
        log("migrating")
        manage(env, "migrate", "--noinput", "-v", "0", service=SERVICE)
        output = manage(env, "createkey", "--org", "bench", "--name", "bench", service=SERVICE)
        port = free_port()
        self.server = Gunicorn(env, port, self.work / "gunicorn.log", service=SERVICE)
        log(f"starting gunicorn on 127.0.0.1:{port} ({self.args.workers} workers)")
        self.server.start(f"{API}/health", {})
        return Api("127.0.0.1", port, output.splitlines()[-1].strip())

    # the measurements

    def run(self) -> Results:
        api = self.start()
        self.describe_setup()
        self.seed(api)
        settle()
        for what, measure in [
            ("recall (POST /recall)", self.measure_recall),
            ("turn learning (POST /turns)", self.measure_turns),
            ("list first page (GET /memories?limit=20)", self.measure_list),
        ]:
            try:
                measure(api)
            except ApiError as exc:  # one endpoint failing need not hide the others' figures
                log(f"{what} failed: {exc}")
                self.failed = True
                self.results.rows.append(Row(what, "failed", verdict="FAILED"))
                self.results.notes.append(f"! {what} failed: {str(exc)[:300]}")
        self.read_rss()
        return self.results

    def describe_setup(self) -> None:
        with self.database.connect() as conn:
            (pg_version,) = conn.execute("SHOW server_version").fetchone()
            (shared_buffers,) = conn.execute("SHOW shared_buffers").fetchone()
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        threads = self.env().get("GUNICORN_THREADS", "4")
        args = self.args
        self.results.header = [
            f"Memory service benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
            f"commit {commit or '?'}; {os.cpu_count()} cores, Python {platform.python_version()}",
            f"Server: gunicorn gthread, {args.workers} workers x {threads} threads, 127.0.0.1; "
            f"PostgreSQL {pg_version} (shared_buffers {shared_buffers})",
            f"Sizes: {args.memories:,} memories in one organisation (seeded in batches of "
            f"{args.batch}, one client); {args.samples} timed "
            f"requests per measure after {args.warmup} untimed",
        ]

    def seed(self, api: Api) -> None:
        """POST fresh statements until the service holds ``--memories`` of them.

        The service folds a statement into a held one on the same subject when they share a
        term, so more statements are sent than are held; the answers' counts say how many. One
        client: concurrent batches serialise on the index totals' row and deadlock on the
        memories they merge into (500 StorageFailure), so threads made seeding slower.
        """
        target, size = self.args.memories, self.args.batch
        statements = corpus.memories()
        state: Counter[str] = Counter()  # the answers' counts, and "sent"
        log(f"seeding {target:,} memories, {size} a request")
        started = time.perf_counter()
        conn = api.connect()
        try:
            while (need := target - state["stored"]) > 0:
                if state["sent"] > MAX_SENT_PER_HELD * target:
                    raise RuntimeError(f"the service merged most of {state['sent']:,} sent")
                batch = list(itertools.islice(statements, min(need, size)))
                state["sent"] += len(batch)
                answer = self.post_batch(api, conn, batch, state)
                before = state["stored"] * 10 // target
                state.update(answer["counts"])
                if state["stored"] * 10 // target > before:
                    log(f"stored {state['stored']:,} of {state['sent']:,} sent")
        finally:
            conn.close()
        seconds = time.perf_counter() - started
        with self.database.connect() as conn:
            conn.execute("VACUUM ANALYZE")
        conn = api.connect()
        try:
            held = call(api, conn, "GET", "/memories?limit=1")["counts"]
        finally:
            conn.close()
        self.held = held["total"]
        log(f"seeded in {seconds:.0f} s; the service holds {self.held:,} memories")
        self.results.rows.append(
            Row(
                f"seeding {self.held:,} memories (POST /memories)",
                f"{seconds:.0f} s",
                note=f"{state['sent'] / seconds:.0f} statements/s sent, "
                f"{state['stored'] / seconds:.0f} memories/s stored",
            )
        )
        self.results.notes.append(
            f"Seeding: {state['sent']:,} distinct statements from memory_corpus.py (templates "
            "over ~1,300 names, tools, places, foods and projects, Zipf-distributed; kinds and "
            f"domains set) until the service held {target:,}. It answered stored "
            f"{state['stored']:,}, merged {state['merged']:,}, rejected {state['rejected']:,}, "
            f"tensions {state['tensions']:,}; counts afterwards {held}. Requests sent again "
            f"after a 500 StorageFailure: {state['retried']}. VACUUM ANALYZE after."
        )

    def post_batch(
        self,
        api: Api,
        conn: http.client.HTTPConnection,
        batch: list[corpus.Statement],
        state: Counter[str],
    ) -> dict[str, Any]:
        """POST one batch, again after a 500 StorageFailure (which says "retry")."""
        body = {"memories": [statement.body() for statement in batch]}
        for attempt in range(1, SEED_ATTEMPTS + 1):
            try:
                return call(api, conn, "POST", "/memories", body)
            except (ApiError, http.client.HTTPException, ConnectionError) as exc:
                if attempt == SEED_ATTEMPTS or (isinstance(exc, ApiError) and exc.status != 500):
                    raise
                conn.close()  # a dropped keep-alive reconnects on the next request
                state["retried"] += 1
                time.sleep(0.2 * attempt)
        raise AssertionError("unreachable")

    def measure_recall(self, api: Api) -> None:
        queries = corpus.recall_queries(self.args.samples)
        warmup = [{"query": q} for _, q in corpus.recall_queries(self.args.warmup, seed=12)]
        log(f"timing recall: {len(warmup)} + {len(queries)} queries")
        load = os.getloadavg()[0]
        samples, answers = timed(api, "POST", "/recall", [{"query": q} for _, q in queries], warmup)
        found: Counter[str] = Counter()
        for (category, _), answer in zip(queries, answers, strict=True):
            if answer["empty"] != (not answer["results"]):
                raise RuntimeError(f"recall: empty {answer['empty']} with results {answer}")
            found[category] += bool(answer["results"])
        self.timing_row("recall (POST /recall), mixed queries", samples, RECALL_P95_MS, load)
        slowest = sorted(zip(samples, queries, strict=True), reverse=True)[:5]
        self.results.notes.append(
            f"Recall by query: {breakdown([c for c, _ in queries], samples, found)}. Slowest: "
            + ", ".join(f"{q!r} {s * 1000:.1f} ms" for s, (_, q) in slowest)
            + "."
        )
        self.plan_queries = ["user", "the user prefers python", slowest[0][1][1]]

    def measure_turns(self, api: Api) -> None:
        turns = corpus.turns(self.args.warmup + self.args.samples)

        def body(index: int, message: str) -> dict[str, str]:
            reply = corpus.ASSISTANT_REPLIES[index % len(corpus.ASSISTANT_REPLIES)]
            return {
                "userMessage": message,
                "assistantResponse": reply,
                "sessionId": f"s{index // 8}",
            }

        payloads = [body(i, message) for i, (_, message) in enumerate(turns)]
        warmup, payloads = payloads[: self.args.warmup], payloads[self.args.warmup :]
        log(f"timing turn learning: {len(warmup)} + {len(payloads)} turns")
        load = os.getloadavg()[0]
        samples, answers = timed(api, "POST", "/turns", payloads, warmup)
        counts: Counter[str] = Counter()
        for answer in answers:
            counts.update(answer["counts"])
        self.timing_row("turn learning (POST /turns)", samples, TURN_P95_MS, load)
        labels = [category for category, _ in turns[self.args.warmup :]]
        self.results.notes.append(
            f"Turns, each posted once, by message: {breakdown(labels, samples)}. The service "
            f"counted stored {counts['stored']}, merged {counts['merged']}, rejected "
            f"{counts['rejected']}, tensions {counts['tensions']}, promoted {counts['promoted']}."
        )

    def measure_list(self, api: Api) -> None:
        log(f"timing the list's first page: {self.args.warmup} + {self.args.samples} GETs")
        load = os.getloadavg()[0]
        samples, answers = timed(
            api, "GET", "/memories?limit=20", [None] * self.args.samples, [None] * self.args.warmup
        )
        if len(answers[0]["memories"]) != min(20, self.held):
            raise RuntimeError(f"list: {len(answers[0]['memories'])} memories on the first page")
        self.timing_row("list first page (GET /memories?limit=20)", samples, None, load)

    def timing_row(
        self, what: str, samples: list[float], target_ms: float | None, load: float
    ) -> None:
        p50, p95 = percentile(samples, 0.50) * 1000, percentile(samples, 0.95) * 1000
        target, verdict = "", ""
        if target_ms is not None:
            target = f"p95 <= {target_ms:.0f} ms"
            verdict = self.results.verdict(p95 <= target_ms, what)
        self.results.rows.append(
            Row(
                what,
                f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                target,
                verdict,
                f"max {max(samples) * 1000:.1f} ms; load average {load:.2f} -> "
                f"{os.getloadavg()[0]:.2f}",
            )
        )

    def read_rss(self) -> None:
        assert self.server is not None
        peaks = {pid: peak_rss_bytes(pid) for pid in self.server.worker_pids()}
        each = ", ".join(f"pid {pid} {rss / MB:.0f} MB" for pid, rss in sorted(peaks.items()))
        self.results.rows.append(
            Row(
                f"worker peak RSS (VmHWM), max of {len(peaks)}",
                f"{max(peaks.values()) / MB:.0f} MB",
                note=each,
            )
        )
        self.results.notes.append(
            "All timings: one client on one kept-alive connection; each time covers sending the "
            "request and reading the whole body. Peak RSS is read at the end (seeding included). "
            f"The 1-minute load average ({os.cpu_count()} cores) before and after each measure "
            "tells whether something else was running: the bench alone keeps about one core busy."
        )

    def explain(self) -> str:
        """Return the plans of recall's SQL for ``plan_queries`` and of the list's, as text."""
        log("EXPLAIN ANALYZE of the SQL of recall and the list")
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.memory", "explain", *self.plan_queries],
            cwd=ROOT,
            env={**self.env(), "DJANGO_SETTINGS_MODULE": f"{SERVICE}.settings"},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"explain failed:\n{done.stderr[-3000:]}")
        return done.stdout


def explain_sql(queries: list[str]) -> None:
    """Print the SELECTs of recall for each of ``queries`` and of the list's first page, planned."""
    import django

    django.setup()
    from django.db import connection

    from memory_service.accounts.models import Organisation
    from memory_service.memories.listing import memories_page, tier_counts
    from memory_service.memories.lookup import memories_recall

    org = Organisation.objects.get(name="bench")
    cases: list[tuple[str, Callable[[], object]]] = [
        (f"recall {query!r}", functools.partial(memories_recall, org=org, query=query, limit=8))
        for query in queries
    ]
    cases.append(("list first page", lambda: (memories_page(org=org, limit=20), tier_counts(org))))
    for what, run in cases:
        captured = captured_sql(run)
        print(f"=== {what}: {sum(q['ms'] for q in captured):.1f} ms of SQL")
        for item in captured:
            if not item["sql"].lstrip().upper().startswith("SELECT"):
                continue  # recall's touch UPDATE: EXPLAIN ANALYZE would run it
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {item['sql']}", item["params"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
            sql = connection.ops.compose_sql(item["sql"], item["params"])
            print(f"--- {item['ms']:.1f} ms in the service's connection\n{sql}\n\n{plan}\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["explain"]:  # the bench's own subprocess, in the service's environment
        explain_sql(argv[1:])
        return 0
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, terminate_as_exit)
    started = time.perf_counter()
    plans = ""
    with single_run_lock(VAR / "bench-memory.lock"), Bench(args) as bench:
        results = bench.run()
        try:
            plans = bench.explain()
        except RuntimeError as exc:  # the plans are a help, not a result
            results.notes.append(f"! No query plans: {str(exc).strip().splitlines()[-1]}")
    results.notes.append(f"Whole run: {time.perf_counter() - started:.0f} s (seeding included).")
    table = results.table()
    REPORT.write_text(table)
    if not bench.failed:
        FAILED_LOG.unlink(missing_ok=True)  # a failed run's server log, now out of date
    if plans:
        PLANS.write_text(plans)
    print(table, end="")
    log(f"wrote {REPORT.relative_to(ROOT)}" + (f" and {PLANS.relative_to(ROOT)}" if plans else ""))
    return 1 if bench.failed else 0


if __name__ == "__main__":
    sys.exit(main())
