"""What an operator reads: a request id on every answer and log line, and GET /ready."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.storage.envelope import error_of

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def test_every_answer_carries_a_new_request_id(api):
    first, second = api.get("/v1/keys"), APIClient().get("/v1/keys")
    ids = {first["X-Request-Id"], second["X-Request-Id"]}
    assert len(ids) == 2 and all(len(i) == 32 for i in ids)


def test_the_proxy_s_request_id_is_kept(api):
    response = api.get("/v1/nothing-here", HTTP_X_REQUEST_ID="nginx-5f2b9c:01")
    assert response.status_code == 404
    assert response["X-Request-Id"] == "nginx-5f2b9c:01"


@pytest.mark.parametrize("given", ["", "a b", 'x"y', "x" * 129, "é", "-leading-dash"])
def test_a_request_id_that_is_not_a_short_token_is_replaced(api, given):
    assert api.get("/v1/keys", HTTP_X_REQUEST_ID=given)["X-Request-Id"] != given


def test_a_browser_may_read_the_request_id(api, settings):
    settings.CORS_ALLOWED_ORIGINS = ["https://app.example"]
    response = api.get("/v1/keys", HTTP_ORIGIN="https://app.example")
    assert "X-Request-Id" in response["Access-Control-Expose-Headers"]


def test_a_server_error_is_logged_as_json_with_the_request_id(admin_key, log_lines):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_key.secret}")
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE accounts_apikey RENAME TO accounts_apikey_gone")
    try:
        response = client.get("/v1/keys", HTTP_X_REQUEST_ID="trace-42")
    finally:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("ALTER TABLE accounts_apikey_gone RENAME TO accounts_apikey")
    assert response.status_code == 500
    lines = log_lines()
    [error] = [line for line in lines if line["logger"] == "django.request"]
    assert error["requestId"] == "trace-42" == response["X-Request-Id"]
    assert error["level"] == "ERROR" and "Traceback" in error["exception"]
    assert admin_key.secret not in json.dumps(lines)


def test_a_line_logged_outside_a_request_has_no_request_id(log_lines):
    logging.getLogger("storage_service").warning("between requests")
    [line] = log_lines()
    assert (line["message"], line["requestId"]) == ("between requests", "-")


def test_ready_checks_what_is_configured_without_a_key_or_the_rate_limit(settings):
    # The embedded default. With a Redis that answers, /ready says ok: the scale-out check and
    # make fuzz wait for its 200 before they start (both configure REDIS_URL).
    settings.REDIS_URL = None
    response = APIClient().get("/ready")
    assert response.status_code == 200
    assert response.json() == {
        "ready": True,
        "checks": {"database": "ok", "redis": "not configured", "objectStore": "not configured"},
    }
    assert "X-RateLimit-Limit" not in response and response["Cache-Control"] == "no-store"


def test_ready_is_503_while_redis_is_unreachable(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = APIClient().get("/ready")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == "unreachable"


def test_ready_answers_only_get_and_head():
    client = APIClient()
    assert client.head("/ready").status_code == 200
    response = client.post("/ready", {})
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
    assert error_of(response, 405)["code"] == "METHOD_NOT_ALLOWED"  # the envelope, as on /v1


def test_ready_is_503_without_the_database_and_shows_nothing_of_it(tmp_path):
    script = (
        "import django, json; django.setup(); from django.test import Client; "
        "r = Client().get('/ready'); print(json.dumps([r.status_code, r.json()]))"
    )
    env = {
        **{k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}},
        "DJANGO_SETTINGS_MODULE": "storage_service.settings",
        "SECRET_KEY": "set",
        "VAR_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "testserver",
        "DATABASE_URL": "postgres://storage:never-shown@127.0.0.1:1/storage",
    }
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    status, body = json.loads(result.stdout.splitlines()[-1])
    assert (status, body["ready"], body["checks"]["database"]) == (503, False, "unreachable")
    assert "never-shown" not in result.stdout + result.stderr
