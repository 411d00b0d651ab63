"""deploy/storage: `check --deploy` passes with env.example's environment, and gunicorn.conf.py
takes the client's address from the proxy in front."""

from __future__ import annotations

import os
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = REPO / "deploy" / "storage" / "env.example"


def env_example() -> dict[str, str]:
    """The example's NAME=value lines; comments and commented-out settings are left out."""
    lines = ENV_EXAMPLE.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def run_service(env: dict[str, str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m storage_service <args>`` with exactly ``env`` configured."""
    kept = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG"}}
    return subprocess.run(
        [sys.executable, "-m", "storage_service", *args],
        env={**kept, **env, "VAR_DIR": str(tmp_path)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_production_environment_passes_every_deploy_check(tmp_path):
    secrets_filled_in = {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "API_KEY_PEPPER": secrets.token_urlsafe(50),
    }
    result = run_service(
        {**env_example(), **secrets_filled_in},
        tmp_path,
        *("check", "--deploy", "--fail-level", "WARNING"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_example_with_its_secrets_left_empty_refuses_to_start(tmp_path):
    assert env_example()["SECRET_KEY"] == ""
    result = run_service(env_example(), tmp_path, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


# gunicorn.conf.py's wrapper: behind nginx, the client's address is the one nginx saw.
GUNICORN_CONF = runpy.run_path(str(REPO / "deploy" / "storage" / "gunicorn.conf.py"))


def remote_addr_seen(peer: str, real_ip: str, trusted: list[str]) -> str:
    def application(environ, start_response):
        return [environ["REMOTE_ADDR"]]

    wrapped = GUNICORN_CONF["ClientAddressFromProxy"](application, "X-Real-IP", trusted)
    return wrapped({"REMOTE_ADDR": peer, "HTTP_X_REAL_IP": real_ip}, None)[0]


def test_the_address_a_trusted_proxy_names_becomes_remote_addr():
    assert remote_addr_seen("127.0.0.1", "203.0.113.5", ["127.0.0.1", "::1"]) == "203.0.113.5"
    assert remote_addr_seen("10.1.2.3", "2001:db8::1", ["10.0.0.0/8"]) == "2001:db8::1"
    assert remote_addr_seen("", "203.0.113.5", ["127.0.0.1"]) == "203.0.113.5"  # unix socket


def test_an_address_named_by_any_other_peer_is_ignored():
    assert remote_addr_seen("198.51.100.9", "203.0.113.5", ["127.0.0.1"]) == "198.51.100.9"


def test_a_header_that_is_not_an_address_is_ignored():
    assert remote_addr_seen("127.0.0.1", "evil\r\nvalue", ["127.0.0.1"]) == "127.0.0.1"


def test_the_wrapper_keeps_the_applications_early_error():
    def application(environ, start_response):
        return []

    application.early_error = "the service's"
    wrapped = GUNICORN_CONF["ClientAddressFromProxy"](application, "X-Real-IP", ["127.0.0.1"])
    assert wrapped.early_error == "the service's"
