"""Serve each service, point schemathesis at its description, then read the logs for secrets."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

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
from tests.log_leaks import leaked_lines

# What the issue asks of every answer: no server error, and nothing the description does not
# allow. Left out: positive_data_acceptance and negative_data_rejection (business rules a schema
# cannot state: a folder that is not empty, a range whose end is its start), and the stateful
# resource checks (use_after_free, ensure_resource_availability), which do not know that a
# deleted folder can be restored or that a restore needs a folder in the trash.
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "missing_required_header",
    "ignored_auth",
)
# 405 for a method a path does not have: storage's contract; memory's answers 400 InvalidRequest
# with Allow (decisions.md), which its description says.
METHOD_405 = "unsupported_method"


@dataclass(frozen=True)
class Service:
    module: str
    schema_path: str
    key_args: tuple[str, ...]
    checks: tuple[str, ...]


SERVICES = {
    "storage": Service(
        "storage_service",
        "/v1/schema?format=json",
        ("--plan", "production"),
        (*CHECKS, METHOD_405),
    ),
    "memory": Service(
        "memory_service",
        "/api/v1/schema?format=json",
        ("--scopes", "memories:read,memories:write,stats:read,keys:manage"),
        CHECKS,
    ),
}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--services", default="storage,memory", help="comma-separated")
    parser.add_argument("--max-time", type=int, default=90, help="seconds per service")
    parser.add_argument("--seed", type=int, default=20261201, help="same seed, same requests")
    add_server_arguments(parser, redis="Redis for rate limits and the cache")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    failed = []
    for name in args.services.split(","):
        if not fuzz(name, SERVICES[name], args):
            failed.append(name)
    print("fuzz:", "FAILED " + ", ".join(failed) if failed else "passed")
    return 1 if failed else 0


def fuzz(name: str, service: Service, args: argparse.Namespace) -> bool:
    """Serve ``service``, fuzz it, and check its logs; True when all of it passed."""
    (ROOT / "var").mkdir(exist_ok=True)  # a fresh clone has none until something runs
    work = Path(tempfile.mkdtemp(prefix=f"fuzz-{name}-", dir=ROOT / "var"))
    database = Database(args.database_admin_url, f"fuzz_{name}_{os.getpid()}")
    namespace = f"fuzz-{name}-{os.getpid()}"
    env = environment(work, database, args.redis_url, namespace)
    server = Gunicorn(env, free_port(), work / "gunicorn.log", service=service.module)
    database.create()
    try:
        manage(env, "migrate", "--noinput", "-v", "0", service=service.module)
        created = manage(
            env,
            "createkey",
            "--org",
            "fuzz",
            "--name",
            "fuzz",
            *service.key_args,
            service=service.module,
        )
        secret = created.strip().splitlines()[-1]
        server.start("/ready", {})
        fuzzed = schemathesis(server.port, service, secret, args, work)
    finally:
        server.stop()
        database.drop()
        redis_forget(args.redis_url, namespace)
    leaks = leaked_lines([work / "gunicorn.log"], [secret])
    print(f"{name}: schemathesis {'passed' if fuzzed else 'FAILED'};", end=" ")
    print(f"log lines holding a secret or a signed link: {len(leaks)}")
    for line in leaks[:5]:
        print("   ", line[:300])
    if fuzzed and not leaks:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"{name}: kept {work.relative_to(ROOT)} (the log and schemathesis' report)")
    return fuzzed and not leaks


def environment(work: Path, database: Database, redis_url: str, namespace: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if name in {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    }
    env.update(
        SECRET_KEY="fuzz-" + os.urandom(16).hex(),
        VAR_DIR=str(work / "var"),
        DATABASE_URL=database.django_url,
        WEB_CONCURRENCY="2",
        RATE_LIMIT_NAMESPACE=namespace,
        REDIS_NAMESPACE=namespace,
    )
    if redis_reachable(redis_url):
        env["REDIS_URL"] = redis_url
    return env


def schemathesis(
    port: int, service: Service, secret: str, args: argparse.Namespace, work: Path
) -> bool:
    command = [
        str(BIN / "schemathesis"),
        "run",
        f"http://127.0.0.1:{port}{service.schema_path}",
        *("--header", f"Authorization: Bearer {secret}"),
        *("--checks", ",".join(service.checks)),
        *("--phases", "examples,coverage,fuzzing,stateful"),
        *("--max-time", str(args.max_time)),
        *("--seed", str(args.seed)),
        # One worker: with two threads CPython 3.11 crashed schemathesis in its own code (ast's
        # "AST constructor recursion depth mismatch", a KeyError in linecache), both races
        # between threads; CI failed on it with no finding.
        *("--workers", "1"),
        *("--request-timeout", "30"),
        "--suppress-health-check=all",
        *("--report", "junit", "--report-dir", str(work / "report")),
    ]
    for attempt in (1, 2, 3):
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
        output = done.stdout + done.stderr
        (work / f"schemathesis-{attempt}.txt").write_text(output)
        print("\n".join(output.strip().splitlines()[-12:]))
        # schemathesis' own crash, not a finding: run it again (at most three runs in all).
        if done.returncode == 0 or "Failures:" in output or "Runtime Error" not in output:
            break
        print("schemathesis itself failed with no finding; running it again")
    return done.returncode == 0
