"""deploy/storage: `check --deploy` passes with env.example's environment, and gunicorn.conf.py
takes the client's address from the proxy in front."""

from __future__ import annotations

import runpy
from pathlib import Path

from tests.deploy_checks import DEPLOY_CHECK, env_example, run_service, with_secrets

REPO = Path(__file__).resolve().parents[2]


def test_the_production_environment_passes_every_deploy_check(tmp_path):
    result = run_service("storage", with_secrets(env_example("storage")), tmp_path, *DEPLOY_CHECK)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_example_with_its_secrets_left_empty_refuses_to_start(tmp_path):
    assert env_example("storage")["SECRET_KEY"] == ""
    result = run_service("storage", env_example("storage"), tmp_path, "check")
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
