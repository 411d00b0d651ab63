"""Two instances of each service on loopback, as two hosts behind a load balancer would run them.

What the instances of a service share: its PostgreSQL database, Redis (under one namespace for
the run), its secret key and pepper (signed download links and key hashes must verify on either),
and, for storage, the S3 bucket (moto's standalone server). What each keeps to itself: its port,
its workers' memory (the key cache) and its local directories (``VAR_DIR``, ``MEDIA_ROOT``), so
that nothing passes between them on this machine's disk.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import boto3
from moto.server import ThreadedMotoServer

from tests.bench.client import Api
from tests.bench.server import ROOT, Database, Gunicorn, free_port, manage, redis_forget

WORK = ROOT / "var" / "scale-out.work"
INSTANCES = ("a", "b")
# The caller's own settings for the services (a developer's object store, CI's DATABASE_URL) must
# not reach the instances: they run on what is set here only.
FOREIGN = ("GUNICORN", "STORAGE_", "MEMORY_", "DJANGO_", "AWS_")
FOREIGN_NAMES = {
    "API_KEY_PEPPER",
    "DATABASE_URL",
    "REDIS_URL",
    "REDIS_NAMESPACE",
    "RATE_LIMIT_NAMESPACE",
    "MEDIA_ROOT",
    "FILE_UPLOAD_TEMP_DIR",
    "ALLOWED_HOSTS",
}
S3_REGION = "us-east-1"
S3_CREDENTIALS = {"AWS_ACCESS_KEY_ID": "scale-out", "AWS_SECRET_ACCESS_KEY": "scale-out"}


def log(message: str) -> None:
    print(f"[scale-out {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


@dataclass
class Service:
    """One service's shared database and environment, and its two gunicorn instances."""

    module: str  # storage_service, memory_service
    ready_path: str
    database: Database
    env: dict[str, str]
    servers: list[Gunicorn] = field(default_factory=list)

    @property
    def short(self) -> str:
        return self.module.removesuffix("_service")

    def manage(self, *args: str) -> str:
        return manage(self.env, *args, service=self.module)

    def createkey(self, org: str, *options: str) -> str:
        """Create an organisation and a key with every permission; return the key's secret."""
        output = self.manage("createkey", "--org", org, "--name", f"{org} key", *options)
        return output.splitlines()[-1].strip()

    def apis(self, key: str) -> list[Api]:
        """The key on instance A and on instance B."""
        return [Api("127.0.0.1", server.port, key, timeout=60) for server in self.servers]

    def start(self, workers: int) -> None:
        for name in INSTANCES:
            local = WORK / f"{self.short}-{name}"
            env = {
                **self.env,
                "VAR_DIR": str(local / "var"),
                "MEDIA_ROOT": str(local / "media"),
                "WEB_CONCURRENCY": str(workers),
            }
            self.servers.append(
                Gunicorn(env, free_port(), WORK / f"{self.short}-{name}.log", service=self.module)
            )
        with ThreadPoolExecutor(len(self.servers)) as pool:
            for started in [pool.submit(s.start, self.ready_path, {}) for s in self.servers]:
                started.result()


class Cluster:
    """The object store, both services' databases and their four instances; ``with`` throws all
    of it away at the end, also on failure or SIGTERM (raised as SystemExit)."""

    def __init__(self, *, admin_url: str, redis_url: str, workers: int) -> None:
        self.redis_url = redis_url
        self.workers = workers
        self.run_id = secrets.token_hex(4)
        self.s3_port = free_port()
        self.s3 = ThreadedMotoServer(ip_address="127.0.0.1", port=self.s3_port, verbose=False)
        self.s3_started = False
        self.keep_logs = False  # set when a check failed: the instances' logs then go to stderr
        self.bucket = f"scale-out-{self.run_id}"
        self.storage = Service(
            "storage_service",
            "/ready",
            Database(admin_url, "scale_out_storage"),
            self._env(RATE_LIMIT_NAMESPACE=f"scale-out-{self.run_id}-storage"),
        )
        self.memory = Service(
            "memory_service",
            "/api/v1/health",
            Database(admin_url, "scale_out_memory"),
            self._env(REDIS_NAMESPACE=f"scale-out-{self.run_id}-memory"),
        )
        self.databases_made: list[Database] = []

    @property
    def services(self) -> list[Service]:
        return [self.storage, self.memory]

    def namespace(self, service: Service) -> str:
        return service.env.get("RATE_LIMIT_NAMESPACE") or service.env["REDIS_NAMESPACE"]

    def _env(self, **namespace: str) -> dict[str, str]:
        env = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith(FOREIGN) and name not in FOREIGN_NAMES
        }
        env.update(
            SECRET_KEY=secrets.token_urlsafe(48),
            DEBUG="0",
            REDIS_URL=self.redis_url,
            LOG_LEVEL="WARNING",
            **namespace,
        )
        return env

    def __enter__(self) -> Cluster:
        try:
            self._set_up()
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def _set_up(self) -> None:
        shutil.rmtree(WORK, ignore_errors=True)  # a leftover of an interrupted run
        WORK.mkdir(parents=True)
        # moto serves through werkzeug, whose access log would go to this run's stderr.
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.s3.start()
        self.s3_started = True
        endpoint = f"http://127.0.0.1:{self.s3_port}"
        boto3.client(
            "s3",
            endpoint_url=endpoint,
            region_name=S3_REGION,
            aws_access_key_id=S3_CREDENTIALS["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=S3_CREDENTIALS["AWS_SECRET_ACCESS_KEY"],
        ).create_bucket(Bucket=self.bucket)
        self.storage.env.update(
            S3_CREDENTIALS,
            STORAGE_S3_BUCKET=self.bucket,
            STORAGE_S3_ENDPOINT_URL=endpoint,
            STORAGE_S3_REGION=S3_REGION,
            # The bucket as a path, not a host name: 127.0.0.1 has no subdomains.
            STORAGE_S3_ADDRESSING_STYLE="path",
        )
        for service in self.services:
            log(f"creating database {service.database.name}")
            self.databases_made.append(service.database)
            service.database.create()
            service.env["DATABASE_URL"] = service.database.django_url
        log("migrating both databases")
        with ThreadPoolExecutor(2) as pool:
            for done in [
                pool.submit(s.manage, "migrate", "--noinput", "-v", "0") for s in self.services
            ]:
                done.result()

    def start(self) -> None:
        """Start the four instances (once the keys are made: ``createkey`` beside them would
        only slow their start)."""
        log(f"starting two instances of each service ({self.workers} workers each)")
        with ThreadPoolExecutor(2) as pool:
            for done in [pool.submit(s.start, self.workers) for s in self.services]:
                done.result()
        for service in self.services:
            ports = ", ".join(
                f"{n.upper()} :{s.port}" for n, s in zip(INSTANCES, service.servers, strict=True)
            )
            log(f"{service.short}: {ports}")

    def __exit__(self, exc_type: type[BaseException] | None, *exc_info: object) -> None:
        log("stopping the instances")
        servers = [server for service in self.services for server in service.servers]
        # Each waits out its workers' graceful exit; whatever happens, the rest is thrown away too.
        with contextlib.suppress(Exception), ThreadPoolExecutor(len(servers) or 1) as pool:
            list(pool.map(Gunicorn.stop, servers))
        if exc_type is not None or self.keep_logs:
            for service in self.services:
                for server in service.servers:
                    log(f"last lines of {server.log_path.relative_to(ROOT)}, access log left out:")
                    print(_unusual_lines(server.log_path), file=sys.stderr)
        for database in self.databases_made:
            with contextlib.suppress(Exception):
                database.drop()
        for service in self.services:
            redis_forget(self.redis_url, self.namespace(service))
        if self.s3_started:
            self.s3.stop()
        shutil.rmtree(WORK, ignore_errors=True)
        log("cleaned up: servers stopped, databases dropped, Redis namespaces forgotten")


def _unusual_lines(path: Path, lines: int = 40) -> str:
    """The log's last lines but the access log's, which says only what the checks already did."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    kept = [line for line in text.splitlines() if '"logger": "gunicorn.access"' not in line]
    return "\n".join(kept[-lines:])
