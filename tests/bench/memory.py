"""The memory service benchmark (``make bench-memory``).

Against gunicorn (the deploy config, 2 gthread workers) on loopback and a throwaway PostgreSQL
database, it posts statements from tests/bench/memory_corpus.py to POST /api/v1/memories (batches
of 100, one client) until one organisation holds 10,000 memories (the service folds about half
of them into held ones). It moves 20 of them to core (PATCH /api/v1/memories/<id>) and records
outcomes that leave four domains weak, so that every context block has guardrails, core bodies
and an index, and times POST /api/v1/context there. It seeds on to 100,000 memories and times,
each on one kept-alive connection after a warm-up:

1. POST /api/v1/context: messages that name a concrete term mid-sentence (a name, a place, a port,
   a time, a region), whose bodies a working memory may hold, and lowercase questions that name
   nothing, interleaved; one in five with maxTokens 200, so that the block is cut. Every answer is
   checked: totalTokens within the ceiling, the entries' lines joined by newlines equal to text,
   sections in order;
2. POST /api/v1/recall: 1-4 corpus terms, natural-language questions, queries that match nothing;
3. POST /api/v1/turns: statements, statements with small talk, questions, restatements;
4. GET /api/v1/memories?limit=20, the first page;
5. POST /api/v1/self-model/outcome: the corpus's team names as domains, successes and failures
   with and without a failure pattern or a strategy;
6. POST /api/v1/tensions/<id>: resolving tensions recorded (untimed) between pairs of seeded
   memories, keeping one, the other or both. Last, since each archives a memory or files a lesson;

and reads the workers' peak RSS (``VmHWM``). The database and the server are thrown away at the
end, also on failure or Ctrl-C. The table goes to stdout and var/bench-memory.txt; the EXPLAIN
ANALYZE of the SQL of recall (common-term queries and the slowest one), of the list and of the
slowest context builds (one of each kind of message) to var/bench-memory-plans.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.client
import itertools
import os
import platform
import random
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
    add_server_arguments,
    free_port,
    manage,
    one_row,
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

# The targets, at 100,000 memories; a context build's also at 10,000.
RECALL_P95_MS = 20.0
# Issue 13: POST /memories in batches of 100 takes in at least this many statements a second.
INGESTION_PER_SECOND = 1_500
TURN_P95_MS = 30.0
CONTEXT_P95_MS = 50.0
CONTEXT_SMALL_P95_MS = 30.0
CONTEXT_SMALL_SIZE = 10_000
# Memories moved to core before the context is timed, and the small ceiling some builds ask for.
CORE_MEMORIES = 20
SMALL_CEILING = 200
SECTIONS = ("guardrails", "core", "index", "triggered")
# Outcomes recorded before the context is timed: two failures leave a domain weak (reliability
# 0.4, below 0.6), so each of the first four is a guardrail line; "writing" is not weak.
SETUP_OUTCOMES: list[dict[str, Any]] = [
    {
        "domain": "deploys",
        "success": False,
        "failurePattern": "deployed on a Friday without telling the on-call",
        "strategy": "deploy before Thursday noon",
    },
    {"domain": "deploys", "success": False, "failurePattern": "skipped the staging smoke test"},
    {"domain": "coding", "success": False, "failurePattern": "merged without running the tests"},
    {"domain": "coding", "success": False, "strategy": "run the whole suite before merging"},
    {"domain": "travel", "success": False},
    {"domain": "travel", "success": False},
    {
        "domain": "estimates",
        "success": False,
        "failurePattern": "gave a date before reading the code",
        "strategy": "give a range, not a date",
    },
    {"domain": "estimates", "success": False},
    *[{"domain": "writing", "success": True}] * 3,
]
# Seeding gives up when the service folds this many statements per one it keeps.
MAX_SENT_PER_HELD = 5
SEED_ATTEMPTS = 5


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=100_000, help="memories to seed")
    parser.add_argument(
        "--context-stage",
        type=int,
        default=CONTEXT_SMALL_SIZE,
        help="also time the context build when this many are held (skipped unless below "
        "--memories; 0 skips it)",
    )
    parser.add_argument("--samples", type=int, default=300, help="timed requests per measure")
    parser.add_argument("--warmup", type=int, default=30, help="untimed requests per measure first")
    parser.add_argument("--batch", type=int, default=100, help="memories per seeding request")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    add_server_arguments(parser, database="bench_memory")
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
    """Send ``warmup`` then ``payloads`` to ``path`` on one connection; return the latter's times
    and answers."""
    return timed_each(api, method, [(path, p) for p in payloads], [(path, p) for p in warmup])


def timed_each(
    api: Api, method: str, requests: list[tuple[str, Any]], warmup: list[tuple[str, Any]]
) -> tuple[list[float], list[dict[str, Any]]]:
    """Send ``warmup`` then ``requests`` (each a path and a payload) on one connection; return the
    latter's times and answers.

    Each time covers sending the request and reading the whole body.
    """
    conn = api.connect()
    samples, answers = [], []
    try:
        for path, payload in warmup:
            call(api, conn, method, path, payload)
        for path, payload in requests:
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


def block_problems(answer: dict[str, Any], ceiling: int) -> list[str]:
    """Return what is wrong with one context block asked for under ``ceiling`` tokens."""
    problems = []
    if answer["totalTokens"] > ceiling:
        problems.append(f"totalTokens {answer['totalTokens']} over the ceiling {ceiling}")
    if "\n".join(entry["line"] for entry in answer["entries"]) != answer["text"]:
        problems.append("the entries' lines joined by newlines differ from text")
    order = [SECTIONS.index(entry["section"]) for entry in answer["entries"]]
    if order != sorted(order):
        problems.append(f"sections out of order: {[e['section'] for e in answer['entries']]}")
    return problems


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({part / whole:.0%})" if whole else "0/0"


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
        self.plan_messages: list[str] = []  # context builds to EXPLAIN
        self.failed = False  # a measure failed: gunicorn's log is kept
        self.statements = corpus.memories()  # seeding goes on from where a stage stopped
        self.seeding: Counter[str] = Counter()  # the answers' counts, and "sent"
        self.seed_seconds = 0.0
        self.seeded: dict[str, str] = {}  # id -> content of every memory seeding stored or merged
        self.held = 0
        self.core_ids: list[str] = []
        self.ceiling = 0  # the service's maxTotalTokens, read from health

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
        api = Api("127.0.0.1", port, output.splitlines()[-1].strip())
        conn = api.connect()
        try:
            self.ceiling = call(api, conn, "GET", "/health")["limits"]["maxTotalTokens"]
        finally:
            conn.close()
        return api

    # the measurements

    def run(self) -> Results:
        api = self.start()
        self.describe_setup()
        setup = "context setup (PATCH /memories/<id>, POST /self-model/outcome)"
        if self.staged():
            self.seed(api, self.args.context_stage)
            self.attempt(setup, self.prepare_context, api)
            settle()
            self.attempt("context build (POST /context)", self.measure_context, api)
        self.seed(api, self.args.memories)
        if not self.core_ids:
            self.attempt(setup, self.prepare_context, api)
        settle()
        for what, measure in [
            ("context build (POST /context)", self.measure_context),
            ("recall (POST /recall)", self.measure_recall),
            ("turn learning (POST /turns)", self.measure_turns),
            ("list first page (GET /memories?limit=20)", self.measure_list),
            ("self-model outcome (POST /self-model/outcome)", self.measure_outcomes),
            # Last: resolving archives memories and files lessons.
            ("tension resolution (POST /tensions/<id>)", self.measure_tensions),
        ]:
            self.attempt(what, measure, api)
        self.read_rss()
        return self.results

    def staged(self) -> bool:
        return 0 < self.args.context_stage < self.args.memories

    def attempt(self, what: str, measure: Callable[[Api], None], api: Api) -> None:
        try:
            measure(api)
        except ApiError as exc:  # one endpoint failing need not hide the others' figures
            log(f"{what} failed: {exc}")
            self.failed = True
            self.results.rows.append(Row(what, "failed", verdict="FAILED"))
            self.results.notes.append(f"! {what} failed: {str(exc)[:300]}")

    def describe_setup(self) -> None:
        with self.database.connect() as conn:
            (pg_version,) = one_row(conn.execute("SHOW server_version"))
            (shared_buffers,) = one_row(conn.execute("SHOW shared_buffers"))
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        threads = self.env().get("GUNICORN_THREADS", "4")
        args = self.args
        sizes = (
            f"Sizes: {args.memories:,} memories in one organisation (seeded in batches of "
            f"{args.batch}, one client)"
        )
        if self.staged():
            sizes += f", the context also timed at {args.context_stage:,}"
        self.results.header = [
            f"Memory service benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
            f"commit {commit or '?'}; {os.cpu_count()} cores, Python {platform.python_version()}",
            f"Server: gunicorn gthread, {args.workers} workers x {threads} threads, 127.0.0.1; "
            f"PostgreSQL {pg_version} (shared_buffers {shared_buffers})",
            sizes,
            f"{args.samples} timed requests per measure (per kind of message for the context) "
            f"after {args.warmup} untimed; context ceiling {self.ceiling} tokens "
            f"(maxTotalTokens) and {SMALL_CEILING} (maxTokens) for one build in five",
        ]

    def seed(self, api: Api, target: int) -> None:
        """POST fresh statements until the service holds ``target`` of them.

        The service folds a statement into a held one on the same subject when they share a
        term, so more statements are sent than are held; the answers' counts say how many. One
        client: concurrent batches serialise on the index totals' row and deadlock on the
        memories they merge into (500 StorageFailure), so threads made seeding slower. A second
        call goes on from where the first stopped.
        """
        size, state = self.args.batch, self.seeding
        first, first_sent = state["stored"], state["sent"]
        log(f"seeding {target:,} memories, {size} a request")
        started = time.perf_counter()
        conn = api.connect()
        try:
            while (need := target - state["stored"]) > 0:
                if state["sent"] > MAX_SENT_PER_HELD * target:
                    raise RuntimeError(f"the service merged most of {state['sent']:,} sent")
                batch = list(itertools.islice(self.statements, min(need, size)))
                state["sent"] += len(batch)
                answer = self.post_batch(api, conn, batch, state)
                before = state["stored"] * 10 // target
                state.update(answer["counts"])
                self.seeded.update((m["id"], m["content"]) for m in answer["memories"])
                if state["stored"] * 10 // target > before:
                    log(f"stored {state['stored']:,} of {state['sent']:,} sent")
        finally:
            conn.close()
        seconds = time.perf_counter() - started
        self.seed_seconds += seconds
        with self.database.connect() as db:
            db.execute("VACUUM ANALYZE")
        conn = api.connect()
        try:
            held = call(api, conn, "GET", "/memories?limit=1")["counts"]
        finally:
            conn.close()
        self.held = held["total"]
        log(f"seeded in {seconds:.0f} s; the service holds {self.held:,} memories")
        # Ingestion: statements the service took in (stored, merged or rejected) a second.
        rate = (state["sent"] - first_sent) / seconds
        what = f"seeding {'on to ' if first else ''}{self.held:,} memories (POST /memories)"
        self.results.rows.append(
            Row(
                what,
                f"{rate:,.0f} memories/s",
                target=f">= {INGESTION_PER_SECOND:,} memories/s",
                verdict=self.results.verdict(rate >= INGESTION_PER_SECOND, what),
                note=f"{seconds:.0f} s; {(state['stored'] - first) / seconds:.0f} memories/s "
                "stored as new (the rest merged or refused)",
            )
        )
        if target < self.args.memories:
            return
        self.results.notes.append(
            f"Seeding: {state['sent']:,} distinct statements from memory_corpus.py (templates "
            "over ~1,300 names, tools, places, foods and projects, Zipf-distributed; kinds and "
            f"domains set) until the service held {target:,}, in {self.seed_seconds:.0f} s. It "
            f"answered stored {state['stored']:,}, merged {state['merged']:,}, rejected "
            f"{state['rejected']:,}, tensions {state['tensions']:,}; counts afterwards {held}. "
            f"Requests sent again after a 500 StorageFailure: {state['retried']}. VACUUM ANALYZE "
            "after each stage."
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

    def prepare_context(self, api: Api) -> None:
        """Move ``CORE_MEMORIES`` seeded memories to core, record ``SETUP_OUTCOMES`` (untimed)."""
        self.core_ids = random.Random(6).sample(list(self.seeded), CORE_MEMORIES)
        moves = [(f"/memories/{memory_id}", {"tier": "core"}) for memory_id in self.core_ids]
        log(f"moving {len(moves)} memories to core, recording {len(SETUP_OUTCOMES)} outcomes")
        samples, answers = timed_each(api, "PATCH", moves, [])
        if any(answer["tier"] != "core" for answer in answers):
            raise RuntimeError(f"PATCH tier core answered {[a['tier'] for a in answers]}")
        _, outcomes = timed(api, "POST", "/self-model/outcome", SETUP_OUTCOMES, [])
        last = {outcome["domain"]: outcome for outcome in outcomes}
        weak = sorted(name for name, outcome in last.items() if outcome["reliabilityScore"] < 0.6)
        self.results.notes.append(
            f"Context setup, at {self.held:,} memories: {len(moves)} seeded memories moved to "
            f"core (PATCH /memories/<id>: {spread(samples)}) and {len(SETUP_OUTCOMES)} outcomes "
            f"recorded, which left {len(weak)} domains weak ({', '.join(weak)}): each block "
            "opens with their guardrails, then the core bodies, then the index."
        )

    def measure_context(self, api: Api) -> None:
        """Time context builds for messages that name a concrete term and for ones that do not.

        Each answer is checked; a bad one fails the rows of the messages it is among.
        """
        count, size = self.args.samples, self.held
        held = list(self.seeded.values())
        messages = corpus.context_messages(2 * count, held)
        warmup = corpus.context_messages(self.args.warmup, held, seed=14)

        def body(index: int, message: str) -> dict[str, Any]:
            small = index // 2 % 5 == 0  # one in five of each kind
            return {"userMessage": message, **({"maxTokens": SMALL_CEILING} if small else {})}

        payloads = [body(i, message) for i, (_, message) in enumerate(messages)]
        log(f"timing the context build at {size:,} memories: {len(warmup)} + {len(payloads)}")
        load = os.getloadavg()[0]
        samples, answers = timed(
            api, "POST", "/context", payloads, [body(i, m) for i, (_, m) in enumerate(warmup)]
        )
        target = CONTEXT_SMALL_P95_MS if size <= CONTEXT_SMALL_SIZE else CONTEXT_P95_MS
        naming = ["none" if kind == "none" else "naming" for kind, _ in messages]
        problems: list[str] = []
        bad: set[str] = set()  # the groups a bad answer is among
        triggered: Counter[str] = Counter()  # per kind, among full-ceiling builds
        full: Counter[str] = Counter()
        sections: Counter[str] = Counter()  # lines per section, full-ceiling builds
        truncated: Counter[int] = Counter()
        without_guardrails, full_tokens, misses = 0, [], []
        for (kind, message), payload, answer, group in zip(
            messages, payloads, answers, naming, strict=True
        ):
            ceiling = payload.get("maxTokens", self.ceiling)
            for problem in block_problems(answer, ceiling):
                bad.add(group)
                problems.append(f"{problem} ({message!r}, ceiling {ceiling})")
            truncated[ceiling] += answer["truncated"]
            if ceiling != self.ceiling:
                continue
            held_sections = Counter(entry["section"] for entry in answer["entries"])
            full[kind] += 1
            triggered[kind] += bool(held_sections["triggered"])
            sections.update(held_sections)
            full_tokens.append(answer["totalTokens"])
            without_guardrails += not held_sections["guardrails"]
            if kind != "none" and not held_sections["triggered"]:
                misses.append(message if not answer["truncated"] else f"{message} (truncated)")
        label = f"context build at {size:,} memories"
        self.timing_row(f"{label}, all messages", samples, target, load, failed=bool(bad))
        for group, what in (("naming", "naming a term"), ("none", "naming nothing")):
            picked = [t for t, g in zip(samples, naming, strict=True) if g == group]
            self.timing_row(f"{label}, {what}", picked, target, load, failed=group in bad)
        if problems:
            self.failed = True
            self.results.notes.append(
                f"! Context at {size:,}: {len(problems)} blocks failed the checks, e.g. "
                + "; ".join(problems[:5])
            )
        named = sum(n for kind, n in full.items() if kind != "none")
        hit = sum(n for kind, n in triggered.items() if kind != "none")
        if 2 * hit < named or triggered["none"]:
            self.results.notes.append(
                f"! Context at {size:,}: {share(hit, named)} of the messages naming a term got a "
                f"triggered body, and {triggered['none']} of those naming nothing did."
            )
        builds = sum(full.values())
        small = len(payloads) - builds
        labels = [
            f"{kind}{'' if p.get('maxTokens') is None else f' /{SMALL_CEILING}'}"
            for (kind, _), p in zip(messages, payloads, strict=True)
        ]
        slowest = sorted(zip(samples, messages, strict=True), reverse=True)[:3]
        by_kind = ", ".join(
            f"{kind} {share(triggered[kind], n)}"
            for kind, n in sorted(full.items())
            if kind != "none"
        )
        cut = sum(message.endswith("(truncated)") for message in misses)
        average = ", ".join(f"{sections[name] / builds:.1f} {name}" for name in SECTIONS)
        self.results.notes.append(
            f"Context at {size:,} memories: {count} messages naming a term and {count} naming "
            f"nothing, interleaved; one in five with maxTokens {SMALL_CEILING} (/{SMALL_CEILING} "
            f"below), the others under the service's {self.ceiling}. Of those naming a term "
            f"under {self.ceiling}, {share(hit, named)} got a triggered body (of the others, "
            f"{cut} were truncated); by kind: {by_kind}; of those naming nothing, "
            f"{triggered['none']} did. Under {self.ceiling} a block held on average "
            f"{average} lines, {sum(full_tokens) / builds:.0f} tokens (max {max(full_tokens)}); "
            f"{without_guardrails} had no guardrails; truncated "
            f"{share(truncated[self.ceiling], builds)}; under {SMALL_CEILING}, truncated "
            f"{share(truncated[SMALL_CEILING], small)}. Every block checked (totalTokens within "
            f"the ceiling, lines joined equal to text, sections in order): {len(problems)} "
            "failed. Naming a term without a trigger, e.g.: "
            + "; ".join(repr(m) for m in misses[:4])
            + f". By kind: {breakdown(labels, samples)}. Slowest: "
            + ", ".join(f"{m!r} {t * 1000:.1f} ms" for t, (_, m) in slowest)
            + "."
        )
        self.plan_messages = [
            max((t, m) for t, (kind, m) in zip(samples, messages, strict=True) if group(kind))[1]
            for group in (lambda kind: kind != "none", lambda kind: kind == "none")
        ]

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

    def measure_outcomes(self, api: Api) -> None:
        bodies = corpus.outcomes(self.args.warmup + self.args.samples)
        warmup, payloads = bodies[: self.args.warmup], bodies[self.args.warmup :]
        log(f"timing self-model outcomes: {len(warmup)} + {len(payloads)}")
        load = os.getloadavg()[0]
        samples, answers = timed(api, "POST", "/self-model/outcome", payloads, warmup)
        sent, failures = Counter[str](), Counter[str]()
        for body in bodies:
            sent[body["domain"]] += 1
            failures[body["domain"]] += not body["success"] or "failurePattern" in body
        last = {answer["domain"]: answer for answer in answers}
        wrong = [
            f"{name}: samples {a['samples']}, failures {a['failures']} (sent {sent[name]}, "
            f"{failures[name]})"
            for name, a in sorted(last.items())
            if (a["samples"], a["failures"]) != (sent[name], failures[name])
        ]
        what = "self-model outcome (POST /self-model/outcome)"
        self.timing_row(what, samples, None, load, failed=bool(wrong))
        labels = [
            "success"
            if body["success"]
            else "failure with notes"
            if {"failurePattern", "strategy"} & body.keys()
            else "failure"
            for body in payloads
        ]
        weak = sum(answer["reliabilityScore"] < 0.6 for answer in last.values())
        self.results.notes.append(
            f"Outcomes: {len(bodies)} over {len(sent)} domains (the team names), each posted "
            f"once; by body: {breakdown(labels, samples)}. {weak} of the domains ended weak; "
            f"each domain's last answer counted every outcome sent to it: "
            f"{'yes' if not wrong else 'NO, ' + '; '.join(wrong[:5])}."
        )
        if wrong:
            self.failed = True

    def measure_tensions(self, api: Api) -> None:
        """Record tensions between pairs of seeded working memories, then time resolving each."""
        count = self.args.warmup + self.args.samples
        core = set(self.core_ids)
        pool = [memory_id for memory_id in self.seeded if memory_id not in core]
        picked = random.Random(7).sample(pool, 2 * count)
        pairs = list(zip(picked[::2], picked[1::2], strict=True))
        log(
            f"recording {count} tensions, then timing {self.args.warmup} + {self.args.samples} "
            "resolutions"
        )
        opened_times, opened = timed(
            api, "POST", "/tensions", [{"memoryIds": list(pair)} for pair in pairs], []
        )
        resolutions = []
        for index, tension in enumerate(opened):
            older, newer = tension["memoryIds"]
            keep = (newer, older, "both")[index % 3]
            body: dict[str, Any] = {"keep": keep}
            if index % 4 == 0:
                body["note"] = f"Settled in the review of tension {index} with the team."
            resolutions.append((f"/tensions/{tension['id']}", body))
        warmup, timed_resolutions = resolutions[: self.args.warmup], resolutions[self.args.warmup :]
        load = os.getloadavg()[0]
        samples, answers = timed_each(api, "POST", timed_resolutions, warmup)
        wrong = [
            f"{path}: {answer['status']}, kept {(answer['resolution'] or {}).get('keep')}"
            for (path, body), answer in zip(timed_resolutions, answers, strict=True)
            if answer["status"] != "resolved" or answer["resolution"]["keep"] != body["keep"]
        ]
        what = "tension resolution (POST /tensions/<id>)"
        self.timing_row(what, samples, None, load, failed=bool(wrong))
        labels = [
            ("keep both" if body["keep"] == "both" else "keep one") + (" + note" * ("note" in body))
            for _, body in timed_resolutions
        ]
        conn = api.connect()
        try:
            counts = call(api, conn, "GET", "/memories?limit=1")["counts"]
        finally:
            conn.close()
        self.results.notes.append(
            f"Tensions: {count} recorded between disjoint pairs of seeded working memories "
            f"(POST /tensions, not in the table: {spread(opened_times)}), each resolved once "
            "keeping the "
            f"newer, the older or both in turn, one in four with a note; by body: "
            f"{breakdown(labels, samples)}. Every answer resolved as asked: "
            f"{'yes' if not wrong else 'NO, ' + '; '.join(wrong[:5])}. Memories afterwards: "
            f"{counts}."
        )
        if wrong:
            self.failed = True

    def timing_row(
        self,
        what: str,
        samples: list[float],
        target_ms: float | None,
        load: float,
        *,
        failed: bool = False,
    ) -> None:
        """Add the row of ``samples``; ``failed`` (an answer was wrong) overrides the verdict."""
        p50, p95 = percentile(samples, 0.50) * 1000, percentile(samples, 0.95) * 1000
        target, verdict = "", ""
        if target_ms is not None:
            target = f"p95 <= {target_ms:.0f} ms"
            verdict = self.results.verdict(p95 <= target_ms, what)
        if failed:
            verdict = "FAILED"
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
        """Return the plans of recall's SQL for ``plan_queries``, of the list's and of the context
        build's for ``plan_messages``, as text."""
        log("EXPLAIN ANALYZE of the SQL of recall, the list and the context build")
        done = subprocess.run(
            [
                sys.executable,
                *("-m", "tests.bench.memory", "explain"),
                *self.plan_queries,
                "--context",
                *self.plan_messages,
            ],
            cwd=ROOT,
            env={**self.env(), "DJANGO_SETTINGS_MODULE": f"{SERVICE}.settings"},
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"explain failed:\n{done.stderr[-3000:]}")
        return done.stdout


def explain_sql(queries: list[str], messages: list[str]) -> None:
    """Print the SELECTs of recall for each of ``queries``, of the list's first page and of the
    context build for each of ``messages``, planned."""
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from memory_service.accounts.models import Organisation
    from memory_service.context.services import context_build
    from memory_service.memories.listing import memories_page, tier_counts
    from memory_service.memories.lookup import memories_recall

    org = Organisation.objects.get(name="bench")
    cases: list[tuple[str, Callable[[], object]]] = [
        (f"recall {query!r}", functools.partial(memories_recall, org=org, query=query, limit=8))
        for query in queries
    ]
    cases.append(("list first page", lambda: (memories_page(org=org, limit=20), tier_counts(org))))
    cases += [
        (
            f"context {message!r}",
            functools.partial(
                context_build,
                org=org,
                message=message,
                ceiling=settings.MEMORY_MAX_TOTAL_TOKENS,
                max_index_items=settings.MEMORY_MAX_INDEX_ITEMS,
            ),
        )
        for message in messages
    ]
    for what, run in cases:
        captured = captured_sql(run)
        print(f"=== {what}: {sum(q['ms'] for q in captured):.1f} ms of SQL")
        for item in captured:
            if not item["sql"].lstrip().upper().startswith("SELECT"):
                continue  # recall's and the context's touch UPDATE: EXPLAIN ANALYZE would run it
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {item['sql']}", item["params"])
                plan = "\n".join(row[0] for row in cursor.fetchall())
            # compose_sql is PostgreSQL's, which django-stubs does not declare.
            sql = connection.ops.compose_sql(item["sql"], item["params"])  # type: ignore[attr-defined]
            print(f"--- {item['ms']:.1f} ms in the service's connection\n{sql}\n\n{plan}\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["explain"]:  # the bench's own subprocess, in the service's environment
        split = argv.index("--context") if "--context" in argv else len(argv)
        explain_sql(argv[1:split], argv[split + 1 :])
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
