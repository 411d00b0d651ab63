from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from storage_service.accounts.models import ApiKey, Organisation

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue()


def test_createkey_creates_the_organisation_and_prints_a_working_secret_last(client_for):
    out = run("createkey", "--org", "acme", "--name", "ops", "--plan", "studio")
    secret = out.strip().splitlines()[-1]
    assert secret.startswith("ak_") and " " not in secret
    org = Organisation.objects.get(name="acme")
    assert org.plan == "studio"
    body = client_for(secret).get("/v1/keys").json()
    assert body["data"]["keys"][0]["name"] == "ops"
    assert body["data"]["keys"][0]["permissions"] == [
        "files:read",
        "files:write",
        "folders:read",
        "folders:write",
        "keys:read",
        "keys:write",
        "billing:read",
        "admin",
    ]


def test_createkey_reuses_an_existing_organisation_with_chosen_permissions():
    run("createkey", "--org", "acme", "--name", "one")
    run("createkey", "--org", "acme", "--name", "two", "--permissions", "files:read,keys:read")
    assert Organisation.objects.filter(name="acme").count() == 1
    assert ApiKey.objects.get(name="two").permissions == ["files:read", "keys:read"]


def test_createkey_refuses_unknown_permissions():
    with pytest.raises(CommandError, match="Unknown permissions"):
        run("createkey", "--org", "acme", "--name", "x", "--permissions", "files:read,root")
    assert not ApiKey.objects.exists()


def test_demo_prints_a_labelled_key_once_and_never_again(client_for):
    first = run("demo")
    assert "shown once" in first
    secret = next(
        word.split("=", 1)[1] for word in first.split() if word.startswith("STORAGE_KEY=")
    )
    assert client_for(secret).get("/v1/keys").status_code == 200
    again = run("demo")
    assert "STORAGE_KEY=" not in again and "ak_" not in again
    assert ApiKey.objects.count() == 1


def test_a_later_demo_says_how_to_make_a_key_and_that_recipe_works(client_for):
    run("demo")
    recipe = run("demo").splitlines()[-1]
    assert recipe.startswith("  SECRET_KEY=$(cat var/storage.secret) .venv/bin/python -m storage")
    arguments = recipe.split("-m storage_service ", 1)[1].split()
    secret = run(*arguments).splitlines()[-1]
    assert client_for(secret).get("/v1/keys").status_code == 200
    assert Organisation.objects.get().name == "demo"


def test_without_a_secret_key_no_key_is_printed_and_the_error_is_one_line(tmp_path):
    kept = {name: os.environ[name] for name in ("PATH", "HOME", "LANG") if name in os.environ}
    result = subprocess.run(
        [sys.executable, "-m", "storage_service", "createkey", "--org", "a", "--name", "b"],
        env={**kept, "VAR_DIR": str(tmp_path)},
        cwd=Path(__file__).resolve().parents[3],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        "storage_service: SECRET_KEY must be set when DEBUG is off."
    ]
