"""What gunicorn answers before the application sees a request: each service's JSON, never HTML.

Real gunicorn with each service's deploy config; raw sockets, since an HTTP client would not
send a malformed request.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from tests.bench.server import Gunicorn, free_port, manage


def service_env(tmp_path: Path, service: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("GUNICORN", "STORAGE_", "MEMORY_", "DJANGO_"))
        and name not in {"DATABASE_URL", "REDIS_URL", "MEDIA_ROOT", "FILE_UPLOAD_TEMP_DIR"}
        and name not in {"API_KEY_PEPPER", "WEB_CONCURRENCY", "LOG_LEVEL"}
    }
    env.update(SECRET_KEY="early-errors", VAR_DIR=str(tmp_path / "var"), WEB_CONCURRENCY="1")
    manage(env, "migrate", "--noinput", "-v", "0", service=service)
    return env


@pytest.fixture(scope="module", params=["storage_service", "memory_service"])
def served(request, tmp_path_factory):
    service = request.param
    tmp_path = tmp_path_factory.mktemp(service)
    env = service_env(tmp_path, service)
    port = free_port()
    server = Gunicorn(env, port, tmp_path / "log", service=service)
    if service == "storage_service":
        secret = manage(env, "createkey", "--org", "t", "--name", "t").splitlines()[-1]
        server.start("/v1/keys", {"Authorization": f"Bearer {secret}"})
    else:
        server.start("/api/v1/health", {})
    yield service, port
    server.stop()


def exchange(port: int, raw: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(raw)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


def assert_service_error(service: str, status: int, headers: dict, body: bytes) -> None:
    assert status == 400
    assert headers["content-type"] == "application/json"
    answer = json.loads(body)
    if service == "storage_service":
        assert answer["success"] is False
        assert answer["error"]["code"] == "INVALID_PARAMETERS"
    else:
        assert answer["error"] == "InvalidRequest"
        assert answer["issues"][0]["path"] == ""


def test_a_request_line_past_gunicorns_limit_is_answered_in_the_services_shape(served):
    service, port = served
    path = "/v1/files?" + "x" * 9000
    raw = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    assert_service_error(service, *exchange(port, raw))


def test_a_malformed_content_length_is_answered_in_the_services_shape(served):
    service, port = served
    raw = b"POST /v1/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n"
    assert_service_error(service, *exchange(port, raw))


def test_a_request_line_that_nginx_lets_through_reaches_the_application(served):
    service, port = served
    prefix = "/api/v1" if service == "memory_service" else "/v1"
    path = f"{prefix}/nowhere-{'y' * 6000}"
    raw = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
    status, headers, _ = exchange(port, raw)
    assert status == 404  # the application's unknown-route answer, not gunicorn's 414
    assert headers["content-type"] == "application/json"
