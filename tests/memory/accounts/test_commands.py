from __future__ import annotations

import io
import re

import pytest
from django.core.management import CommandError, call_command

from memory_service.accounts.models import ApiKey, Organisation

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_createkey_creates_the_organisation_and_prints_a_working_secret_last(client_for):
    out, err = run("createkey", "--org", "acme", "--name", "ops", "--scopes", "keys:manage")
    last_line = out.rstrip("\n").splitlines()[-1]
    assert re.fullmatch(r"mk_[0-9A-Za-z]{38}", last_line)
    assert "acme" in err and last_line not in err
    org = Organisation.objects.get(name="acme")
    listed = client_for(last_line).get("/api/v1/keys").json()["keys"]
    assert [(key["name"], key["scopes"]) for key in listed] == [("ops", ["keys:manage"])]
    assert ApiKey.objects.get().organisation == org


def test_createkey_gives_the_default_scopes_and_reuses_an_existing_organisation():
    run("createkey", "--org", "acme", "--name", "one")
    run("createkey", "--org", "acme", "--name", "two")
    assert Organisation.objects.filter(name="acme").count() == 1
    assert ApiKey.objects.get(name="two").scopes == [
        "memories:read",
        "memories:write",
        "stats:read",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--org", "acme", "--name", "ops", "--scopes", "memories:read,root"],
            "Unknown scopes root",
        ),
        (["--org", "acme", "--name", "ops", "--scopes", ","], "at least one scope"),
        (["--org", "acme", "--name", "   "], "only spaces"),
        (["--org", "acme", "--name", "n" * 101], "at most 100"),
        (["--org", "", "--name", "ops"], "blank"),
        (["--org", "acme", "--name", "bell\a"], "printable"),
    ],
)
def test_createkey_refuses_bad_input_and_creates_nothing(args, message):
    with pytest.raises(CommandError, match=message):
        run("createkey", *args)
    assert not ApiKey.objects.exists()
    assert not Organisation.objects.exists()


def test_demo_prints_a_labelled_key_with_every_scope_once_and_never_again(client_for):
    out, _ = run("demo")
    assert "Memory service demo key (shown once" in out
    assert "http://127.0.0.1:8002/api/v1/keys" in out
    secret = re.search(r"MEMORY_KEY=(mk_\S+)", out).group(1)
    listed = client_for(secret).get("/api/v1/keys").json()["keys"]
    assert listed[0]["scopes"] == ["memories:read", "memories:write", "stats:read", "keys:manage"]
    assert Organisation.objects.get().name == "demo"
    again, _ = run("demo")
    assert "MEMORY_KEY=" not in again and "mk_" not in again
    assert ApiKey.objects.count() == 1


def test_a_later_demo_says_how_to_make_a_key_and_that_recipe_works(client_for):
    run("demo")
    recipe = run("demo")[0].splitlines()[-1]
    assert recipe.startswith("  SECRET_KEY=$(cat var/memory.secret) .venv/bin/python -m memory")
    arguments = recipe.split("-m memory_service ", 1)[1].split()
    secret = run(*arguments)[0].splitlines()[-1]
    assert client_for(secret).get("/api/v1/memories").status_code == 200
