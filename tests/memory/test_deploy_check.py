"""`check --deploy` passes with the production environment of deploy/memory/env.example."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENV_EXAMPLE = REPO / "deploy" / "memory" / "env.example"


def env_example() -> dict[str, str]:
    """The example's NAME=value lines; comments and commented-out settings are left out."""
    lines = ENV_EXAMPLE.read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def run_service(env: dict[str, str], tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """Run ``python -m memory_service <args>`` with exactly ``env`` configured."""
    kept = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG"}}
    return subprocess.run(
        [sys.executable, "-m", "memory_service", *args],
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
