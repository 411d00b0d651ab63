"""Run the scale-out check: ``python -m tests.scale_out`` (see the package's docstring)."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from dataclasses import astuple
from functools import partial
from pathlib import Path

from tests.bench.server import ROOT, add_server_arguments, redis_reachable, single_run_lock
from tests.log_leaks import leaked_lines
from tests.scale_out import memory, storage
from tests.scale_out.cluster import Cluster, log
from tests.scale_out.verdicts import judged, weighed


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Two instances of each service, one database.")
    add_server_arguments(
        parser,
        redis="the Redis both instances share",
        admin_url_variable="SCALE_OUT_DATABASE_ADMIN_URL",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per instance")
    return parser.parse_args(argv)


NO_SECRET_LOGGED = "no log line of the four instances holds a key or a signed link"


def no_secret_in(logs: list[Path], secrets: list[str]) -> tuple[bool, str]:
    lines = sum(len(log.read_text(errors="replace").splitlines()) for log in logs)
    leaks = leaked_lines(logs, secrets)
    return weighed([f"{lines} lines read"], [line[:200] for line in leaks[:3]])


def terminate_as_exit(signum: int, frame: object) -> None:
    # SystemExit unwinds through the cluster's ``with``, which throws everything away.
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, terminate_as_exit)
    if not redis_reachable(args.redis_url):
        sys.exit(f"Redis at {args.redis_url} is not reachable: the instances must share one.")
    started = time.perf_counter()
    verdicts = []
    with (
        single_run_lock(ROOT / "var" / "scale-out.lock"),
        Cluster(
            admin_url=args.database_admin_url, redis_url=args.redis_url, workers=args.workers
        ) as cluster,
    ):
        log("creating organisations and keys")
        storage_keys = storage.make_keys(cluster.storage)
        memory_key = memory.make_key(cluster.memory)
        cluster.start()
        for claim, check in [
            *storage.checks(cluster.storage, storage_keys),
            *memory.checks(cluster.memory, memory_key),
        ]:
            verdicts.append(judged(claim, check))
            print(verdicts[-1].line(), flush=True)
        secrets = [*astuple(storage_keys), memory_key]
        logs = [server.log_path for service in cluster.services for server in service.servers]
        verdicts.append(judged(NO_SECRET_LOGGED, partial(no_secret_in, logs, secrets)))
        print(verdicts[-1].line(), flush=True)
        cluster.keep_logs = not all(v.held for v in verdicts)
    held = sum(v.held for v in verdicts)
    print(f"{held} of {len(verdicts)} checks held ({time.perf_counter() - started:.0f} s)")
    return 0 if held == len(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
