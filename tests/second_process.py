"""A second instance of a service, in a process of its own, for tests of what instances share.

``SecondProcess`` starts ``python -m tests.second_process`` on the test database the calling test
uses (its data must be committed: ``django_db(transaction=True)``), with the test's settings
overrides, and sends it requests over a pipe. The process serves them with Django's test
client, through the whole middleware stack, with its own caches and connections, as another
gunicorn worker or another host would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The URL of the test database the calling test's connection uses."""
    from django.db import connection

    config = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{config['NAME']}"
    user = config["USER"] or ""
    password = f":{config['PASSWORD']}" if config["PASSWORD"] else ""
    host = f"{config['HOST'] or '127.0.0.1'}:{config['PORT'] or 5432}"
    return f"postgres://{user}{password}@{host}/{config['NAME']}"


class SecondProcess:
    """Another instance of the service whose settings module is ``settings_module``."""

    def __init__(self, settings_module: str, overrides: dict[str, Any]) -> None:
        env = {**os.environ, "DATABASE_URL": database_url(), "PYTHONPATH": str(ROOT)}
        self.headers: dict[str, str] = {}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.second_process", settings_module, json.dumps(overrides)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None  # piped
        self.stdin, self.stdout = self.process.stdin, self.process.stdout

    def send(self, method: str, path: str, secret: str, repeat: int = 1) -> None:
        """Start ``repeat`` requests; ``statuses`` returns their outcome."""
        line = json.dumps({"method": method, "path": path, "secret": secret, "repeat": repeat})
        self.stdin.write(line + "\n")
        self.stdin.flush()

    def statuses(self) -> list[int]:
        """The statuses of the requests last sent; ``headers`` holds the last one's headers."""
        reply = self.stdout.readline()
        if not reply:
            raise RuntimeError("the second process ended; its error is on stderr")
        answer = json.loads(reply)
        self.headers = answer["headers"]
        return answer["statuses"]

    def request(self, method: str, path: str, secret: str, repeat: int = 1) -> list[int]:
        self.send(method, path, secret, repeat)
        return self.statuses()

    def __enter__(self) -> SecondProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stdin.close()
        self.process.wait(timeout=30)


def serve(settings_module: str, overrides: dict[str, Any]) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = settings_module
    import django

    django.setup()
    from django.conf import settings
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()  # as the test's own process has: testserver is an allowed host

    for name, value in overrides.items():
        setattr(settings, name, value)
    client = Client()
    for line in sys.stdin:
        call = json.loads(line)
        headers = {"HTTP_AUTHORIZATION": f"Bearer {call['secret']}"}
        send = getattr(client, call["method"].lower())
        responses = [send(call["path"], **headers) for _ in range(call["repeat"])]
        answer = {
            "statuses": [response.status_code for response in responses],
            "headers": dict(responses[-1].headers),
        }
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve(sys.argv[1], json.loads(sys.argv[2]))
