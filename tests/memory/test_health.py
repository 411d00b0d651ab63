from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rest_framework.test import APIClient

REPO = Path(__file__).resolve().parents[2]

# Settings load once per pytest run, so settings-level behaviour is checked in a fresh process.
HEALTH_SCRIPT = """
import json, sys
import django
django.setup()
from django.test import Client
response = Client().get(sys.argv[1])
print(json.dumps({"status": response.status_code, "body": response.json()}))
"""


def run_service(env: dict[str, str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python <args>`` as the memory service would start, with exactly ``env`` configured."""
    kept = {
        name: value
        for name, value in os.environ.items()
        if name in {"PATH", "HOME", "LANG", "SYSTEMROOT", "TMPDIR"}
    }
    full_env = {
        **kept,
        "DJANGO_SETTINGS_MODULE": "memory_service.settings",
        "VAR_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "testserver",
        **env,
    }
    return subprocess.run(
        [sys.executable, *args], env=full_env, cwd=REPO, capture_output=True, text=True, timeout=60
    )


def health_in_a_process(env: dict[str, str], tmp_path: Path, path: str = "/api/v1/health") -> dict:
    result = run_service(env, tmp_path, "-c", HEALTH_SCRIPT, path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.django_db
def test_health_answers_without_a_key(settings):
    settings.MEMORY_CONFIG_PROBLEMS = []
    response = APIClient().get("/api/v1/health")
    assert response.status_code == 200
    assert response.json() == {
        "ok": True,
        "service": "memory",
        "extractor": "rules-only",
        "limits": {"maxTotalTokens": 2000, "maxIndexItems": 60, "defaultRecallLimit": 8},
        "problems": [],
    }


def test_health_names_a_database_it_cannot_reach_and_stays_alive(tmp_path):
    unreachable = "postgres://memory:never-shown@127.0.0.1:1/memory"  # nothing listens there
    body = health_in_a_process({"SECRET_KEY": "set", "DATABASE_URL": unreachable}, tmp_path)
    assert body["status"] == 200
    assert body["body"]["ok"] is True
    assert body["body"]["problems"] == ["DATABASE_URL: the database cannot be reached"]
    assert "never-shown" not in json.dumps(body)


def test_health_ignores_a_bad_key():
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer mk_nonsense")
    assert client.get("/api/v1/health").status_code == 200


def test_health_reports_rules_plus_model_and_the_limits_in_use(settings):
    settings.MEMORY_MODEL_URL = "https://llm.example/v1"
    settings.MEMORY_MODEL_NAME = "small"
    settings.MEMORY_MAX_TOTAL_TOKENS = 4000
    body = APIClient().get("/api/v1/health").json()
    assert body["extractor"] == "rules+model"
    assert body["limits"]["maxTotalTokens"] == 4000


def test_health_refuses_another_method_with_invalid_request_and_allow():
    response = APIClient().post("/api/v1/health", {})
    assert response.status_code == 400
    assert response.json()["issues"] == [
        {"path": "method", "message": 'Method "POST" not allowed.'}
    ]
    assert response["Allow"] == "GET, HEAD"


def test_the_service_starts_with_unusable_values_and_health_names_each(tmp_path):
    body = health_in_a_process(
        {
            "SECRET_KEY": "set",
            "MEMORY_MAX_TOTAL_TOKENS": "many",
            "MEMORY_MAX_INDEX_ITEMS": "0",
            "MEMORY_DEFAULT_RECALL_LIMIT": "-1",
            "MEMORY_MODEL_URL": "llm.example",
            "MEMORY_MODEL_NAME": "small",
            "MEMORY_MODEL_API_KEY": "sk-never-shown",
            "MEMORY_URL_PREFIX": "api v1",
            "MEMORY_SESSION_KEYS": "perhaps",
        },
        tmp_path,
    )
    assert body["status"] == 200
    health = body["body"]
    assert health["extractor"] == "rules-only"
    assert health["limits"] == {
        "maxTotalTokens": 2000,
        "maxIndexItems": 60,
        "defaultRecallLimit": 8,
    }
    named = [
        "MEMORY_MAX_TOTAL_TOKENS",
        "MEMORY_MAX_INDEX_ITEMS",
        "MEMORY_DEFAULT_RECALL_LIMIT",
        "MEMORY_MODEL_URL",
        "MEMORY_URL_PREFIX",
        "MEMORY_SESSION_KEYS",
    ]
    unnamed = [name for name in named if not any(name in p for p in health["problems"])]
    assert unnamed == []
    assert len(health["problems"]) == len(named)
    assert "sk-never-shown" not in json.dumps(health)


def test_without_a_secret_key_no_key_is_printed_and_the_error_is_one_line(tmp_path):
    """A per-process key would print API keys that no other process accepts."""
    result = run_service(
        {}, tmp_path, "-m", "memory_service", "createkey", "--org", "a", "--name", "b"
    )
    assert result.returncode != 0
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "memory_service: SECRET_KEY must be set when DEBUG is off (every process and host must "
        "share it, and API_KEY_PEPPER if set)."
    ]


def test_the_system_checks_pass_with_unusable_values(tmp_path):
    result = run_service(
        {"MEMORY_MAX_TOTAL_TOKENS": "many", "MEMORY_URL_PREFIX": "?", "SECRET_KEY": "set"},
        tmp_path,
        "-m",
        "memory_service",
        "check",
    )
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    ("prefix", "health_path", "old_path"),
    [("", "/v1/health", "/api/v1/health"), ("memory/x", "/memory/x/v1/health", "/api/v1/health")],
)
def test_the_url_prefix_moves_the_api(tmp_path, prefix, health_path, old_path):
    env = {"SECRET_KEY": "set", "MEMORY_URL_PREFIX": prefix}
    moved = health_in_a_process(env, tmp_path, health_path)
    assert moved["status"] == 200 and moved["body"]["problems"] == []
    old = health_in_a_process(env, tmp_path, old_path)
    assert old["status"] == 404
    assert old["body"] == {
        "error": "NotFound",
        "message": f"No such endpoint: {old_path}",
        "resource": "route",
        "id": old_path,
    }
