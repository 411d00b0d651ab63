"""The storage service benchmark (``make bench-storage``).

Against gunicorn (the deploy config, 2 gthread workers) on loopback and PostgreSQL, it measures:

1. uploads of one large file (1 GiB by default), by single POST and by multipart upload, against
   ``dd`` writing the same size to the same disk in the same run (median of 3 runs), and the
   workers' peak RSS (``VmHWM``) after them;
2. GET /v1/files latency (p50, p95; one kept-alive client) with 1,000,000 files seeded in SQL:
   the first page, a name search, a category and a MIME type filter, a folder filter; the SQL of
   any case over target is EXPLAIN ANALYZEd.

Everything it makes is thrown away at the end: the database, the work directory under var/, the
server, the Redis counters. The results table goes to stdout and var/bench-storage.txt, every
query plan to var/bench-storage-plans.txt.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from tests.bench import client, seed
from tests.bench.explain import queries_text
from tests.bench.seed import Seeded
from tests.bench.server import (
    ROOT,
    Database,
    Gunicorn,
    add_server_arguments,
    free_port,
    migrate_with_bench_key,
    one_row,
    peak_rss_bytes,
    redis_forget,
    redis_reachable,
    single_run_lock,
)

MIB = 1024 * 1024
MB = 1000 * 1000
VAR = ROOT / "var"
REPORT = VAR / "bench-storage.txt"
PLANS = VAR / "bench-storage-plans.txt"
FAILED_LOG = VAR / "bench-storage-gunicorn.log"

# The issues' targets (issue 13 raised the uploads' from 50%).
UPLOAD_SHARE_OF_DD = 0.60
WORKER_PEAK_RSS = 150 * MB
LIST_P95_MS = 50.0
SEARCH_P95_MS = 150.0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upload-mib", type=int, default=1024, help="upload size (MiB)")
    parser.add_argument("--part-mib", type=int, default=64, help="multipart part size (MiB)")
    parser.add_argument("--part-threads", type=int, default=2, help="client threads for parts")
    parser.add_argument("--runs", type=int, default=3, help="upload runs (the median is kept)")
    parser.add_argument("--files", type=int, default=1_000_000, help="files to seed")
    parser.add_argument("--requests", type=int, default=200, help="timed GETs per case")
    parser.add_argument("--warmup", type=int, default=20, help="untimed GETs per case first")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    add_server_arguments(
        parser,
        database="bench_storage",
        redis="rate-limit counters here when reachable (else in the database)",
    )
    return parser.parse_args(argv)


# -- results -------------------------------------------------------------------------------------


@dataclass
class Row:
    what: str
    value: str
    target: str = ""
    verdict: str = ""
    note: str = ""


@dataclass
class Results:
    header: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    plans: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    over_target: list[str] = field(default_factory=list)

    def verdict(self, ok: bool, case: str) -> str:
        if not ok:
            self.over_target.append(case)
        return "ok" if ok else "MISSED"

    def table(self) -> str:
        heads = Row("measure", "measured", "target", "result", "")
        widths = [
            max(len(getattr(row, name)) for row in [heads, *self.rows])
            for name in ("what", "value", "target", "verdict")
        ]
        lines = [*self.header, ""]
        for row in [heads, *self.rows]:
            cells = [row.what, row.value, row.target, row.verdict]
            text = "  ".join(
                cell.rjust(width) if index == 1 else cell.ljust(width)
                for index, (cell, width) in enumerate(zip(cells, widths, strict=True))
            )
            lines.append(f"{text}  {row.note}".rstrip())
        for note in self.notes:
            lines += ["", textwrap.fill(note, width=100)]
        return "\n".join(lines) + "\n"


def percentile(samples: list[float], share: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def mib_per_s(size: int, seconds: float) -> float:
    return size / MIB / seconds


# -- the run -------------------------------------------------------------------------------------


def terminate_as_exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def log(message: str) -> None:
    print(f"[bench-storage {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work = VAR / "bench-storage.work"
        self.media = self.work / "media"
        self.database = Database(args.database_admin_url, args.database)
        self.namespace = f"bench-storage-{secrets.token_hex(4)}"
        self.redis_url = ""
        self.server: Gunicorn | None = None
        self.results = Results()
        self.org_id = ""
        self.secret_key = secrets.token_urlsafe(48)

    # setup and teardown

    def __enter__(self) -> Bench:
        shutil.rmtree(self.work, ignore_errors=True)  # a leftover of an interrupted run
        self.media.mkdir(parents=True)
        try:
            need = 4 * self.args.upload_mib * MIB + 2 * 1024 * MIB
            free = shutil.disk_usage(self.work).free
            if free < need:
                raise SystemExit(
                    f"Need {need / 2**30:.1f} GiB free under {self.work}, have {free / 2**30:.1f}"
                )
            if redis_reachable(self.args.redis_url):
                self.redis_url = self.args.redis_url
            log(f"creating database {self.database.name}")
            self.database.create()
        except BaseException:
            shutil.rmtree(self.work, ignore_errors=True)
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        if self.server is not None:
            if exc_type is not None:
                shutil.copyfile(self.server.log_path, FAILED_LOG)
                log(f"gunicorn's log (kept in {FAILED_LOG.relative_to(ROOT)}), last lines:")
                print(self.server.log_tail(), file=sys.stderr)
            log("stopping gunicorn")
            self.server.stop()
        with contextlib.suppress(Exception):
            self.database.drop()
        if self.redis_url:
            redis_forget(self.redis_url, self.namespace)
        shutil.rmtree(self.work, ignore_errors=True)
        log("cleaned up (database dropped, work directory removed)")

    def env(self) -> dict[str, str]:
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(("GUNICORN", "STORAGE_", "DJANGO_"))
            and name not in {"FILE_UPLOAD_TEMP_DIR", "MEDIA_ROOT", "API_KEY_PEPPER"}
        }
        env.update(
            DATABASE_URL=self.database.django_url,
            REDIS_URL=self.redis_url,
            SECRET_KEY=self.secret_key,
            DEBUG="0",
            MEDIA_ROOT=str(self.media),
            VAR_DIR=str(self.work / "var"),
            RATE_LIMIT_NAMESPACE=self.namespace,
            WEB_CONCURRENCY=str(self.args.workers),
            LOG_LEVEL="WARNING",
        )
        return env

    def start(self) -> client.Api:
        env = self.env()
        log("migrating")
        self.org_id, secret = migrate_with_bench_key(env, self.database)
        port = free_port()
        self.server = Gunicorn(env, port, self.work / "gunicorn.log")
        log(f"starting gunicorn on 127.0.0.1:{port} ({self.args.workers} workers)")
        api = client.Api("127.0.0.1", port, secret)
        self.server.start("/v1/billing", api.auth())
        return api

    # the measurements

    def run(self) -> Results:
        api = self.start()
        self.describe_setup()
        source = self.make_source()
        baseline = self.warm_up(api)
        self.measure_uploads(api, source, baseline)
        seeded = self.seed()
        self.measure_lists(api, seeded)
        self.explain_lists(seeded)
        return self.results

    def describe_setup(self) -> None:
        with self.database.connect() as conn:
            (pg_version,) = one_row(conn.execute("SHOW server_version"))
            (shared_buffers,) = one_row(conn.execute("SHOW shared_buffers"))
        threads = self.env().get("GUNICORN_THREADS", "4")
        device = subprocess.run(
            ["df", "--output=source", str(self.media)], capture_output=True, text=True, check=False
        ).stdout.split()[-1]
        commit = subprocess.run(
            ["git", "-C", str(ROOT), "describe", "--always", "--dirty"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        self.results.header = [
            f"Storage service benchmark, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, "
            f"commit {commit or '?'}; {os.cpu_count()} cores, Python {platform.python_version()}",
            f"Server: gunicorn gthread, {self.args.workers} workers x {threads} threads, "
            f"127.0.0.1; PostgreSQL {pg_version} (shared_buffers {shared_buffers}); "
            f"rate limits in {'Redis' if self.redis_url else 'the database'}",
            f"Disk: MEDIA_ROOT and dd's file in {self.media.relative_to(ROOT)} on {device}",
        ]

    def make_source(self) -> client.Source:
        size = self.args.upload_mib * MIB
        log(f"writing a {self.args.upload_mib} MiB source file of random bytes")
        return client.source_create(str(self.work / "source.bin"), size)

    def warm_up(self, api: client.Api) -> dict[int, int]:
        """Load every code path once (small upload, list), then read the workers' VmHWM."""
        small = client.source_create(str(self.work / "small.bin"), MIB)
        for _ in self.worker_pids():
            conn = api.connect()
            client.call(api, conn, "GET", "/v1/files")
            conn.close()
            uploaded = client.upload_single(api, small, "warm-up.bin")
            self.delete_file(api, uploaded.file["id"])
        return {pid: peak_rss_bytes(pid) for pid in self.worker_pids()}

    def worker_pids(self) -> list[int]:
        assert self.server is not None
        return self.server.worker_pids()

    def delete_file(self, api: client.Api, file_id: str) -> None:
        conn = api.connect()
        try:
            client.call(api, conn, "DELETE", f"/v1/files/{file_id}")
        finally:
            conn.close()

    def multipart_available(self, api: client.Api) -> bool:
        conn = api.connect()
        try:
            conn.request(
                "POST",
                "/v1/files/multipart-upload-start",
                body=b"{}",
                headers={**api.auth(), "Content-Type": "application/json"},
            )
            response = conn.getresponse()
            response.read()
            return response.status not in {404, 405}
        finally:
            conn.close()

    def dd(self, *, fsync: bool) -> float:
        target = self.media / "dd-test.bin"
        command = ["dd", "if=/dev/zero", f"of={target}", "bs=1M", f"count={self.args.upload_mib}"]
        if fsync:
            command.append("conv=fdatasync")
        os.sync()
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        seconds = time.perf_counter() - started
        target.unlink()
        return seconds

    def check_upload(self, kind: str, upload: client.Upload, source: client.Source) -> None:
        record = upload.file
        problems = []
        if record["size"] != source.size:
            problems.append(f"size {record['size']} != {source.size}")
        if record.get("metadata", {}).get("sha256") != source.sha256:
            problems.append(f"sha256 {record.get('metadata', {}).get('sha256')} != {source.sha256}")
        stored = self.media / self.org_id / record["id"]
        if stored.exists() and stored.stat().st_size != source.size:
            problems.append(f"{stored} holds {stored.stat().st_size} bytes")
        if problems:
            raise RuntimeError(f"{kind} upload stored the wrong file: {'; '.join(problems)}")

    def measure_uploads(
        self, api: client.Api, source: client.Source, baseline: dict[int, int]
    ) -> None:
        runs = self.args.runs
        part_size = self.args.part_mib * MIB
        multipart = self.multipart_available(api)
        if not multipart:
            log("multipart upload routes are not there yet: measuring single uploads only")
        times: dict[str, list[float]] = {"dd_sync": [], "dd": [], "single": [], "multipart": []}
        phases: list[dict[str, float]] = []
        pids_before = self.worker_pids()
        self.dd(fsync=True)  # untimed: the disk's first large write of a run is often slow
        for run in range(1, runs + 1):
            log(f"upload run {run}/{runs}: dd with and without fdatasync")
            times["dd_sync"].append(self.dd(fsync=True))
            times["dd"].append(self.dd(fsync=False))
            log(f"upload run {run}/{runs}: single upload")
            os.sync()
            single = client.upload_single(api, source, f"bench-single-{run}.bin")
            self.check_upload("single", single, source)
            times["single"].append(single.seconds)
            self.delete_file(api, single.file["id"])
            if multipart:
                log(f"upload run {run}/{runs}: multipart upload")
                os.sync()
                upload = client.upload_multipart(
                    api,
                    source,
                    f"bench-multipart-{run}.bin",
                    part_size=part_size,
                    threads=self.args.part_threads,
                )
                self.check_upload("multipart", upload, source)
                times["multipart"].append(upload.seconds)
                phases.append(upload.phases)
                self.delete_file(api, upload.file["id"])
        peaks = {pid: peak_rss_bytes(pid) for pid in self.worker_pids()}
        if self.worker_pids() != pids_before:
            self.results.notes.append(
                f"! gunicorn workers changed during the uploads: {pids_before} -> "
                f"{self.worker_pids()} (a worker died; see the peak RSS with care)"
            )
        self.upload_rows(source.size, times, phases, multipart, baseline, peaks)

    def upload_rows(
        self,
        size: int,
        times: dict[str, list[float]],
        phases: list[dict[str, float]],
        multipart: bool,
        baseline: dict[int, int],
        peaks: dict[int, int],
    ) -> None:
        results = self.results

        def rate(key: str) -> float:
            return mib_per_s(size, statistics.median(times[key]))

        def runs(key: str) -> str:
            return "runs " + ", ".join(f"{mib_per_s(size, s):.0f}" for s in times[key])

        dd_sync, dd_cache = rate("dd_sync"), rate("dd")
        label = f"{size / MIB:.0f} MiB"
        results.rows += [
            Row(
                f"dd {label}, conv=fdatasync (baseline)",
                f"{dd_sync:.0f} MiB/s",
                note=runs("dd_sync"),
            ),
            Row(f"dd {label}, no fsync (page cache)", f"{dd_cache:.0f} MiB/s", note=runs("dd")),
        ]
        target = f">= {UPLOAD_SHARE_OF_DD * dd_sync:.0f} MiB/s"
        kinds = [("single", f"upload {label}, single POST")]
        if multipart:
            kinds.append(("multipart", f"upload {label}, multipart {self.args.part_mib} MiB parts"))
        for key, what in kinds:
            value = rate(key)
            note = (
                f"{value / dd_sync:.0%} of dd fdatasync, {value / dd_cache:.0%} of dd no-fsync; "
                f"{runs(key)}"
            )
            if key == "multipart":
                split = ", ".join(
                    f"{name} {statistics.median(p[name] for p in phases):.1f} s"
                    for name in ("start", "parts", "complete")
                )
                note += f"; {self.args.part_threads} client threads; median {split}"
            ok = value >= UPLOAD_SHARE_OF_DD * dd_sync
            results.rows.append(
                Row(what, f"{value:.0f} MiB/s", target, results.verdict(ok, what), note)
            )
        if not multipart:
            results.rows.append(
                Row(
                    f"upload {label}, multipart",
                    "pending",
                    target,
                    "n/a",
                    "no multipart routes yet",
                )
            )
        peak = max(peaks.values())
        what = f"worker peak RSS (VmHWM), max of {len(peaks)}"
        each = ", ".join(
            f"pid {pid} {rss / MB:.0f} MB (after warm-up {baseline.get(pid, 0) / MB:.0f})"
            for pid, rss in sorted(peaks.items())
        )
        ok = peak < WORKER_PEAK_RSS
        results.rows.append(
            Row(
                what,
                f"{peak / MB:.0f} MB",
                f"< {WORKER_PEAK_RSS / MB:.0f} MB",
                results.verdict(ok, what),
                each,
            )
        )
        results.notes.append(
            "Uploads: wall time from the first byte sent to the whole answer read (multipart: "
            "start + parts + complete); throughput is the median of the runs. dd writes /dev/zero "
            "with bs=1M. The service fsyncs every upload before answering (STORAGE_FSYNC, on by "
            "default: the spilled file, the multipart data file, and the directory after the "
            "rename), so dd with fdatasync, which the target is judged against, is like for like. "
            "sync(1) before each timed step; each upload is checked for size and SHA-256, then "
            "deleted. Peak RSS is read after all uploads, before seeding."
        )

    def seed(self) -> Seeded:
        log(f"seeding {self.args.files:,} files in SQL")
        started = time.perf_counter()
        with self.database.connect() as conn:
            seeded = seed.seed(conn, org_id=self.org_id, files=self.args.files)
        log(f"seeded in {time.perf_counter() - started:.0f} s")
        share = seeded.search_matches / max(1, seeded.live_files)
        self.results.notes.append(
            f"Seeded in SQL: {seeded.live_files:,} live files (+{seeded.trashed_files:,} in the "
            f"trash) in {seeded.folders:,} folders of one organisation; "
            f"'{seed.SEARCH_WORD}' matches {seeded.search_matches:,} ({share:.2%}); "
            f"by category {dict(sorted(seeded.category_files.items()))}; then VACUUM ANALYZE."
        )
        return seeded

    def cases(self, seeded: Seeded) -> list[Case]:
        def in_category(category: str) -> Callable[[dict], bool]:
            return lambda f: seed_category(f["type"]) == category

        return [
            Case("list", "list first page, sort uploadedAt", {}, LIST_P95_MS, None),
            Case(
                "search",
                f"list search={seed.SEARCH_WORD}",
                {"search": seed.SEARCH_WORD},
                SEARCH_P95_MS,
                lambda f: seed.SEARCH_WORD in f["name"].lower(),
            ),
            Case(
                "category", "list type=image", {"type": "image"}, LIST_P95_MS, in_category("image")
            ),
            Case(
                "mime",
                "list type=image/png",
                {"type": "image/png"},
                LIST_P95_MS,
                lambda f: f["type"] == "image/png",
            ),
            Case(
                "folder",
                f"list folderId (largest, {seeded.largest_folder_files:,} files)",
                {"folderId": seeded.largest_folder_id},
                LIST_P95_MS,
                lambda f: f["folderId"] == seeded.largest_folder_id,
            ),
        ]

    def measure_lists(self, api: client.Api, seeded: Seeded) -> None:
        self.list_cases = self.cases(seeded)
        for case in self.list_cases:
            log(f"timing {case.what}: {self.args.warmup} + {self.args.requests} GETs")
            samples = client.timed_gets(
                api,
                "/v1/files",
                case.params,
                warmup=self.args.warmup,
                count=self.args.requests,
                check=case.checker(seeded),
            )
            p50, p95 = percentile(samples, 0.50) * 1000, percentile(samples, 0.95) * 1000
            case.p95 = p95
            ok = p95 <= case.target_ms
            self.results.rows.append(
                Row(
                    case.what,
                    f"p50 {p50:.1f} ms, p95 {p95:.1f} ms",
                    f"p95 <= {case.target_ms:.0f} ms",
                    self.results.verdict(ok, case.what),
                    f"max {max(samples) * 1000:.1f} ms",
                )
            )
        self.results.notes.append(
            f"Lists: GET /v1/files, limit 20, {self.args.requests} timed requests per case after "
            f"{self.args.warmup} untimed, one client on one kept-alive connection; the time covers "
            "sending the request and reading the whole body."
        )

    def explain_lists(self, seeded: Seeded) -> None:
        log("EXPLAIN ANALYZE of the listing queries")
        scenarios = {case.key: case.params for case in self.list_cases}
        done = subprocess.run(
            [sys.executable, "-m", "tests.bench.explain", self.org_id, json.dumps(scenarios)],
            cwd=ROOT,
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"explain failed:\n{done.stderr[-3000:]}")
        self.results.plans = json.loads(done.stdout)
        for case in self.list_cases:
            queries = self.results.plans.get(case.key, [])
            case.sql_ms = sum(q["ms"] for q in queries)


def seed_category(mime: str) -> str:
    for _, type_, category, *_ in seed.TYPES:
        if type_ == mime:
            return category
    return "other"


@dataclass
class Case:
    key: str
    what: str
    params: dict[str, str]
    target_ms: float
    matches: Callable[[dict], bool] | None
    p95: float = 0.0
    sql_ms: float = 0.0

    def checker(self, seeded: seed.Seeded) -> Callable[[dict[str, Any]], None]:
        def check(data: dict[str, Any]) -> None:
            files = data["files"]
            if not files:
                raise RuntimeError(f"{self.what}: empty first page")
            if self.matches is not None:
                wrong = [f["name"] for f in files if not self.matches(f)]
                if wrong:
                    raise RuntimeError(f"{self.what}: unexpected files {wrong[:3]}")
            elif data["pagination"]["total"] != seeded.live_files:
                raise RuntimeError(
                    f"{self.what}: total {data['pagination']['total']} != {seeded.live_files}"
                )
            stamps = [f["uploadedAt"] for f in files]
            if stamps != sorted(stamps, reverse=True):
                raise RuntimeError(f"{self.what}: not sorted by uploadedAt, newest first")

        return check


def plans_text(results: Results, cases: list[Case], only: set[str] | None = None) -> str:
    out = []
    for case in cases:
        if only is not None and case.what not in only:
            continue
        heading = (
            f"=== {case.what}: p95 {case.p95:.1f} ms over HTTP; listing SQL {case.sql_ms:.1f} ms"
        )
        out += queries_text(heading, results.plans.get(case.key, []))
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, terminate_as_exit)
    started = time.perf_counter()
    with single_run_lock(VAR / "bench-storage.lock"), Bench(args) as bench:
        results = bench.run()
        cases = bench.list_cases
    results.notes.append(f"Whole run: {time.perf_counter() - started:.0f} s (seeding included).")
    table = results.table()
    over = set(results.over_target)
    if over & {case.what for case in cases}:
        table += "\nEXPLAIN ANALYZE of the cases over target (all: var/bench-storage-plans.txt)\n\n"
        table += plans_text(results, cases, only=over)
    REPORT.write_text(table)
    FAILED_LOG.unlink(missing_ok=True)  # a failed run's server log, now out of date
    PLANS.write_text(plans_text(results, cases))
    print(table, end="")
    log(f"wrote {REPORT.relative_to(ROOT)} and {PLANS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
