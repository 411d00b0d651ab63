"""A signed download link, served by gunicorn with the deploy config, stays out of its log."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.bench import client
from tests.bench.server import Gunicorn, free_port, manage


@pytest.fixture
def storage_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a fresh storage service: SQLite and files under ``tmp_path``."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("GUNICORN", "STORAGE_", "DJANGO_"))
        and name not in {"DATABASE_URL", "REDIS_URL", "MEDIA_ROOT", "FILE_UPLOAD_TEMP_DIR"}
        and name not in {"API_KEY_PEPPER", "WEB_CONCURRENCY", "LOG_LEVEL"}
    }
    env.update(SECRET_KEY="access-log-test", VAR_DIR=str(tmp_path / "var"), WEB_CONCURRENCY="1")
    manage(env, "migrate", "--noinput", "-v", "0")
    return env


def test_a_download_is_logged_with_its_token_redacted(storage_env, tmp_path):
    secret = manage(storage_env, "createkey", "--org", "t", "--name", "t").splitlines()[-1]
    port = free_port()
    api = client.Api("127.0.0.1", port, secret, timeout=30)
    server = Gunicorn(storage_env, port, tmp_path / "gunicorn.log")
    try:
        server.start("/v1/keys", api.auth())
        source = client.source_create(str(tmp_path / "hello.txt"), 1000)
        link = urlsplit(client.upload_single(api, source, "hello.txt").file["url"])
        token = link.path.rsplit("/", 1)[-1]
        conn = api.connect()
        # The link again in the query string, as a page passing it along would send it.
        conn.request("GET", f"{link.path}?via={link.path}")
        response = conn.getresponse()
        assert (response.status, len(response.read())) == (200, source.size)
        # A refused download (a range past the end) is in the access log, with its token redacted.
        conn.request("GET", link.path, headers={"Range": "bytes=999999-"})
        response = conn.getresponse()
        assert response.status == 416
        response.read()
        conn.close()
    finally:
        server.stop()

    log = (tmp_path / "gunicorn.log").read_text()
    assert link.path.startswith("/v1/downloads/") and len(token) > 40
    assert token not in log and secret not in log
    # Every line is one JSON object; every access line carries the id the response carried.
    lines = [json.loads(line) for line in log.splitlines() if line.strip()]
    access = [line for line in lines if line["logger"] == "gunicorn.access"]
    assert all(len(line["requestId"]) == 32 for line in access)
    redacted = "/v1/downloads/<redacted>"
    downloads = [
        (line["message"], line["path"], line["query"], line["status"])
        for line in access
        if line["path"] == redacted
    ]
    assert downloads == [
        (f"GET {redacted}?via={redacted} HTTP/1.1", redacted, f"via={redacted}", 200),
        (f"GET {redacted} HTTP/1.1", redacted, "", 416),
    ]
