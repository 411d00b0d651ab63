"""Settings read from the environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys

POSTGRESQL = "postgres://service@db.example:5432/storage"


def database_options(**environment: str) -> dict:
    """The database OPTIONS the storage settings make of ``environment``, in a fresh process."""
    script = (
        "import json; from storage_service import settings; "
        "print(json.dumps(settings.DATABASES['default']['OPTIONS']))"
    )
    env = {**os.environ, "DATABASE_URL": POSTGRESQL, **environment}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them():
    assert database_options()["prepare_threshold"] == 5
    options = database_options(DATABASE_PREPARED_STATEMENTS="0")
    assert options["prepare_threshold"] is None
    assert options["server_side_binding"] is True
