"""A service's production environment (``deploy/<service>/env.example``) run through Django's
checks, as both suites do (``tests/*/test_deploy_check.py``)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def env_example(service: str) -> dict[str, str]:
    """The example's NAME=value lines; comments and commented-out settings are left out."""
    lines = (REPO / "deploy" / service / "env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def with_secrets(env: dict[str, str]) -> dict[str, str]:
    """``env`` with the secrets an operator fills in."""
    return {
        **env,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "API_KEY_PEPPER": secrets.token_urlsafe(50),
    }


def run_service(
    service: str, env: dict[str, str], tmp_path: Path, *args: str
) -> subprocess.CompletedProcess:
    """Run ``python -m <service>_service <args>`` with exactly ``env`` configured."""
    kept = {name: value for name, value in os.environ.items() if name in {"PATH", "HOME", "LANG"}}
    return subprocess.run(
        [sys.executable, "-m", f"{service}_service", *args],
        env={**kept, **env, "VAR_DIR": str(tmp_path)},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


DEPLOY_CHECK = ("check", "--deploy", "--fail-level", "WARNING")
