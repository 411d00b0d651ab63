from __future__ import annotations

import logging

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection
from django.http import Http404
from django.test import Client, RequestFactory
from rest_framework import exceptions as drf
from rest_framework.test import APIClient

from memory_service import api, errors

pytestmark = pytest.mark.django_db


def handle(exc: Exception):
    """Run the exception handler as DRF would for a view that raised ``exc``."""
    request = RequestFactory().get("/api/v1/anything")
    return api.exception_handler(exc, {"request": request, "view": None})


@pytest.mark.parametrize(
    "path", ["/api/v1/memory", "/api/v1/recollect", "/api/v1/", "/api/v1/keys/a/b", "/api/v2/x"]
)
def test_unknown_routes_under_the_prefix_are_not_found_as_json(path):
    response = APIClient().get(path)
    assert response.status_code == 404
    assert response.json() == {
        "error": "NotFound",
        "message": f"No such endpoint: {path}",
        "resource": "route",
        "id": path,
    }


def test_unknown_routes_outside_the_prefix_are_not_found_as_json_too():
    response = APIClient().get("/nothing/here")
    assert response.status_code == 404
    assert response.json()["resource"] == "route"


def test_a_post_to_an_unknown_route_is_not_found_and_not_a_csrf_page():
    response = Client(enforce_csrf_checks=True).post(
        "/api/v1/turn-log", "{}", content_type="application/json"
    )
    assert response.status_code == 404
    assert response.json()["error"] == "NotFound"


def test_malformed_json_is_invalid_request_at_the_body(api):
    response = api.post("/api/v1/keys", "{not json", content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "InvalidRequest"
    assert [item["path"] for item in body["issues"]] == [""]
    assert "JSON parse error" in body["issues"][0]["message"]


@pytest.mark.parametrize("payload", ['["a list"]', '"a string"', "42", "null"])
def test_a_body_that_is_not_an_object_is_invalid_request_at_the_body(api, payload):
    response = api.post("/api/v1/keys", payload, content_type="application/json")
    assert response.status_code == 400
    assert [item["path"] for item in response.json()["issues"]] == [""]


def test_a_body_that_is_not_json_is_invalid_request(api):
    response = api.post("/api/v1/keys", "name=x", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.json()["issues"][0]["path"] == ""


def test_a_body_over_the_size_limit_is_invalid_request(api, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = api.post("/api/v1/keys", {"name": "n" * 2000})
    assert response.status_code == 400
    assert response.json()["issues"] == [
        {"path": "", "message": "The body is larger than 1000 bytes."}
    ]


def test_any_accept_header_is_answered_with_json(api):
    response = api.get("/api/v1/keys", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_a_real_database_failure_is_storage_failure_without_detail(manager_key):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {manager_key.secret}")
    table = manager_key._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} RENAME TO {table}_gone")
    try:
        response = client.get("/api/v1/keys")
    finally:
        # On PostgreSQL the failed query aborted the test's transaction, whose rollback at the end
        # of the test undoes the rename; SQLite carries on, so the rename is undone here.
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {table}_gone RENAME TO {table}")
    assert response.status_code == 500
    assert response.json() == {
        "error": "StorageFailure",
        "message": "The database failed; retry the request.",
    }


def test_the_keys_table_is_back_after_the_database_failure(api):
    assert api.get("/api/v1/keys").status_code == 200


def test_a_database_error_is_storage_failure():
    response = handle(DatabaseError("relation memory_accounts_apikey does not exist"))
    assert response.status_code == 500
    assert response.data == {
        "error": "StorageFailure",
        "message": "The database failed; retry the request.",
    }


def test_a_model_failure_is_502_model_failure():
    # No route calls a model yet (the model extractor comes with turns), so the handler is
    # exercised directly with the exception that extractor will raise.
    response = handle(errors.ModelFailure())
    assert response.status_code == 502
    assert response.data == {
        "error": "ModelFailure",
        "message": "The configured model provider failed; the deterministic path is unaffected.",
    }


def test_any_other_crash_is_500_without_internal_detail():
    response = handle(KeyError("internal secret detail"))
    assert response.status_code == 500
    assert response.data == {"error": "InternalError", "message": "Internal error."}


@pytest.mark.parametrize(
    ("exc", "status", "tag"),
    [
        (Http404(), 404, "NotFound"),
        (PermissionDenied(), 403, "Forbidden"),
        (drf.NotAuthenticated(), 401, "Unauthorized"),
        (drf.ParseError(), 400, "InvalidRequest"),
        (drf.Throttled(), 500, "InternalError"),
    ],
)
def test_framework_exceptions_map_onto_the_error_table(exc, status, tag):
    response = handle(exc)
    assert (response.status_code, response.data["error"]) == (status, tag)


def test_django_s_own_error_handlers_answer_json():
    request = RequestFactory().get("/x")
    assert api.server_error(request).status_code == 500
    assert b'"InternalError"' in api.server_error(request).content
    assert api.bad_request(request).status_code == 400
    assert api.permission_denied(request).status_code == 403


def test_a_refused_request_is_logged_once_by_the_access_log_not_again_by_django(caplog):
    with caplog.at_level(logging.INFO):
        assert APIClient().get("/api/v1/nothing-here").status_code in {401, 404}
        assert APIClient().get("/api/v1/memories").status_code == 401
    assert [record for record in caplog.records if record.name == "django.request"] == []


@pytest.mark.parametrize("path", ["/api/v1/memories", "/api/v1/tensions"])
def test_more_query_parameters_than_django_reads_is_invalid_request(api, path):
    query = "&".join(f"p{i}=1" for i in range(1200))  # DATA_UPLOAD_MAX_NUMBER_FIELDS is 1000
    response = api.get(f"{path}?{query}")
    assert response.status_code == 400
    assert response.json()["error"] == "InvalidRequest"
