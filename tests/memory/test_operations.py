"""What an operator reads: a request id on every answer and log line, and GET /ready."""

from __future__ import annotations

import json
import logging

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.memory.test_health import run_service

pytestmark = pytest.mark.django_db

READY_SCRIPT = """
import django, json
django.setup()
from django.test import Client
response = Client().get("/ready")
print(json.dumps([response.status_code, response.json()]))
"""


def test_every_answer_carries_a_new_request_id(api):
    first, second = api.get("/api/v1/memories"), APIClient().get("/api/v1/health")
    ids = {first["X-Request-Id"], second["X-Request-Id"]}
    assert len(ids) == 2 and all(len(i) == 32 for i in ids)


def test_the_proxy_s_request_id_is_kept_and_a_bad_one_replaced(api):
    kept = api.get("/api/v1/nothing", HTTP_X_REQUEST_ID="Root=1-67891233-abcdef012345678912345678")
    assert kept["X-Request-Id"] == "Root=1-67891233-abcdef012345678912345678"
    assert api.get("/api/v1/memories", HTTP_X_REQUEST_ID="a\tb")["X-Request-Id"] != "a\tb"


def test_a_server_error_is_logged_as_json_with_the_request_id(manager_key, log_lines):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {manager_key.secret}")
    table = manager_key._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} RENAME TO {table}_gone")
    try:
        response = client.get("/api/v1/keys", HTTP_X_REQUEST_ID="trace-42")
    finally:
        if connection.vendor == "sqlite":  # PostgreSQL's rollback at the test's end undoes it
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table}_gone RENAME TO {table}")
    assert response.status_code == 500
    lines = log_lines()
    [error] = [line for line in lines if line["logger"] == "django.request"]
    assert (error["level"], error["requestId"]) == ("ERROR", "trace-42")
    assert manager_key.secret not in json.dumps(lines)


def test_a_line_logged_outside_a_request_has_no_request_id(log_lines):
    logging.getLogger("memory_service").warning("between requests")
    [line] = log_lines()
    assert (line["message"], line["requestId"]) == ("between requests", "-")


def test_ready_checks_the_database_and_redis_without_a_key(settings):
    # The embedded default. With a Redis that answers, /ready says ok: the scale-out check and
    # make fuzz wait for its 200 before they start (both configure REDIS_URL).
    settings.REDIS_URL = None
    response = APIClient().get("/ready")
    assert response.status_code == 200
    assert response.json() == {
        "ready": True,
        "checks": {"database": "ok", "redis": "not configured"},
    }


def test_ready_is_503_while_redis_is_unreachable(settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = APIClient().get("/ready")
    assert response.status_code == 503
    assert response.json() == {
        "ready": False,
        "checks": {"database": "ok", "redis": "unreachable"},
    }


def test_ready_is_503_without_the_database_and_shows_nothing_of_it(tmp_path):
    unreachable = "postgres://memory:never-shown@127.0.0.1:1/memory"
    result = run_service(
        {"SECRET_KEY": "set", "DATABASE_URL": unreachable}, tmp_path, "-c", READY_SCRIPT
    )
    assert result.returncode == 0, result.stderr
    status, body = json.loads(result.stdout.splitlines()[-1])
    assert (status, body["checks"]["database"]) == (503, "unreachable")
    assert "never-shown" not in result.stdout + result.stderr


def test_ready_answers_another_method_as_every_route_of_this_service_does():
    response = APIClient().post("/ready", {})
    assert response.status_code == 400 and response["Allow"] == "GET, HEAD"
    assert response.json() == {
        "error": "InvalidRequest",
        "message": response.json()["message"],
        "issues": [{"path": "method", "message": 'Method "POST" not allowed.'}],
    }
