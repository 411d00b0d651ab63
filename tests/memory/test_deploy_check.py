"""`check --deploy` passes with the production environment of deploy/memory/env.example."""

from __future__ import annotations

from tests.deploy_checks import DEPLOY_CHECK, env_example, run_service, with_secrets


def test_the_production_environment_passes_every_deploy_check(tmp_path):
    result = run_service("memory", with_secrets(env_example("memory")), tmp_path, *DEPLOY_CHECK)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_example_with_its_secrets_left_empty_refuses_to_start(tmp_path):
    assert env_example("memory")["SECRET_KEY"] == ""
    result = run_service("memory", env_example("memory"), tmp_path, "check")
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
