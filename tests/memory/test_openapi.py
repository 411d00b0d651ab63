"""The OpenAPI description at /api/v1/schema: complete, valid, and what the service answers."""

from __future__ import annotations

import pytest
import yaml
from drf_spectacular.validation import validate_schema
from rest_framework.test import APIClient

from memory_service import api as memory_api
from memory_service import errors
from memory_service.accounts.scopes import MEMORIES_READ
from shared.openapi import error_classes
from tests.memory.factories import ApiKeyFactory
from tests.openapi_checks import check_answer, described, routes

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


@pytest.fixture
def schema() -> dict:
    response = APIClient().get(f"{V1}/schema", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def test_the_schema_is_served_without_a_key_and_is_valid_openapi(schema):
    validate_schema(schema)
    assert schema["openapi"].startswith("3.")


def test_the_schema_is_yaml_unless_json_is_asked_for():
    response = APIClient().get(f"{V1}/schema")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.safe_load(response.content)["info"]["title"] == "Memory service"


def test_the_format_asked_for_wins_over_an_accept_header_it_does_not_satisfy():
    response = APIClient().get(f"{V1}/schema", {"format": "json"}, HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")


@pytest.mark.parametrize("path", [f"{V1}/schema", f"{V1}/docs"])
def test_another_method_on_the_schema_or_docs_is_invalid_request_as_json(path):
    response = APIClient().post(path, {})
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == "InvalidRequest"


def test_every_route_is_in_the_schema(schema):
    served = routes(f"{V1}/", skip=(memory_api.route_not_found,))
    served -= {(f"{V1}/schema", "get"), (f"{V1}/docs", "get")}
    assert len(served) > 15
    assert sorted(r for r in served if not described(schema, *r)) == []


def test_paths_are_the_contract_s_under_the_mount(schema):
    assert all(p.startswith(f"{V1}/") and not p.endswith("/") for p in schema["paths"])
    assert f"{V1}/memories/{{id}}" in schema["paths"]
    assert f"{V1}/tensions/{{id}}" in schema["paths"]


def test_health_alone_needs_no_key(schema):
    for template, item in schema["paths"].items():
        for operation in item.values():
            public = template == f"{V1}/health"
            assert (operation["security"] == []) is public, template
            assert ("401" not in operation["responses"]) is public, template


def test_every_failure_the_error_table_has_is_described(schema):
    samples = [
        errors.InvalidRequest([errors.issue("scopes[0]", "Unknown scope.")]),
        errors.Unauthorized(),
        errors.Forbidden("This API key lacks the stats:read scope.", required_scope="stats:read"),
        errors.Forbidden("No scope grants this operation."),
        errors.NotFound(resource="memory", id="mem_x"),
        errors.StorageFailure(),
        errors.InternalError(),
        errors.ModelFailure(),
        errors.BootstrapDisabled(),
    ]
    assert {error.tag for error in samples} == {c.tag for c in error_classes(errors.ApiError)}
    components = schema["components"]["schemas"]
    for error in samples:
        template, method = next(
            (template, method)
            for template, item in schema["paths"].items()
            for method, operation in item.items()
            if str(error.status) in operation["responses"]
        )
        check_answer(schema, template, method, error.status, error.body())
        assert components[error.tag]["required"] == ["error", "message", *error.extra()]


def test_the_docs_page_and_its_assets_come_from_this_service():
    client = APIClient()
    page = client.get(f"{V1}/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "https://" not in html.split("<body")[0]
    bundle = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert bundle.status_code == 200


def test_what_the_service_answers_is_what_the_schema_describes(schema, api, org):
    called = set()

    def call(method: str, template: str, path: str | None = None, client=api, **kw) -> dict:
        """Send a request, check its answer against the description, return its body."""
        called.add((template, method))
        response = getattr(client, method)(V1 + (path or template), **kw)
        assert response.status_code < 300, response.json()
        body = response.json()
        check_answer(schema, V1 + template, method, response.status_code, body)
        return body

    one = call("post", "/memories", data={"content": "We deploy on Tuesdays."})
    first = one["memories"][0]["id"]
    many = {
        "memories": [
            {"content": "Never force-push to main.", "kind": "instruction", "tier": "core"},
            {"content": "Clara prefers morning meetings.", "domain": "work"},
        ],
        "sessionId": "s-1",
    }
    second = call("post", "/memories", data=many)["memories"][1]["id"]
    learned = call(
        "post",
        "/turns",
        data={
            "userMessage": "Hi! I prefer tea over coffee. My password is hunter2hunter2.",
            "assistantResponse": "Noted.",
            "sessionId": "s-1",
        },
    )
    assert learned["rejected"]
    call("get", "/memories", data={"tier": "working", "limit": 5})
    call("get", "/memories/{id}", f"/memories/{first}")
    call("patch", "/memories/{id}", f"/memories/{first}", data={"tier": "core"})
    call("post", "/recall", data={"query": "deploy Tuesdays", "limit": 3})
    call(
        "post",
        "/context",
        data={"userMessage": "When do we deploy on Tuesdays?", "forceFull": [second]},
    )
    tension = call("post", "/tensions", data={"memoryIds": [first, second]})
    call("get", "/tensions", data={"status": "open"})
    third = call("post", "/memories", data={"content": "We deploy on Thursdays."})
    pair = [second, third["memories"][0]["id"]]
    call("post", "/tensions", data={"memoryIds": pair, "description": "Which day?"})
    call("post", "/tensions/{id}", f"/tensions/{tension['id']}", data={"keep": first, "note": None})
    outcome = {"domain": "deploys", "success": False, "failurePattern": "Forgot the migration."}
    call("post", "/self-model/outcome", data=outcome)
    call("get", "/self-model", data={"domain": "deploys"})
    stats = call("get", "/stats")
    assert stats["weakDomains"] and stats["activeTensions"]
    call("get", "/health", client=APIClient())
    key = call("post", "/keys", data={"name": "ci", "scopes": [MEMORIES_READ]})["key"]
    call("get", "/keys")
    call("delete", "/keys/{id}", f"/keys/{key['id']}")
    call("delete", "/memories/{id}", f"/memories/{first}")

    every = {
        (template.removeprefix(V1), method)
        for template, item in schema["paths"].items()
        for method in item
    }
    assert called == every


@pytest.mark.parametrize(
    ("method", "template", "path", "status"),
    [
        ("get", "/memories/{id}", "/memories/mem_missing", 404),
        ("delete", "/keys/{id}", "/keys/key_missing", 404),
        ("post", "/tensions/{id}", "/tensions/tns_missing", 404),
        ("get", "/memories", "/memories?tier=attic", 400),
        ("get", "/stats", "/stats?sortby=name", 400),
        ("patch", "/memories/{id}", "/memories/mem_missing", 400),
        ("post", "/keys", "/keys", 400),
    ],
)
def test_failures_are_described_too(schema, api, method, template, path, status):
    body = {"keep": "both"} if template == "/tensions/{id}" else {}
    response = getattr(api, method)(V1 + path, body)
    assert response.status_code == status
    check_answer(schema, V1 + template, method, status, response.json())
    if status == 400:
        assert response.json()["issues"]


def test_a_method_a_path_does_not_have_answers_as_described_for_its_status(schema, api):
    response = api.put(f"{V1}/keys", {})
    assert response.status_code == 400
    check_answer(schema, f"{V1}/keys", "get", 400, response.json())


def test_answers_without_a_key_or_a_scope_are_described(schema, org, client_for):
    response = APIClient().get(f"{V1}/memories")
    check_answer(schema, f"{V1}/memories", "get", 401, response.json())
    assert response["WWW-Authenticate"] == 'Bearer realm="memory"'
    reader = client_for(ApiKeyFactory(organisation=org, scopes=[MEMORIES_READ]))
    response = reader.get(f"{V1}/stats")
    assert response.status_code == 403
    check_answer(schema, f"{V1}/stats", "get", 403, response.json())
