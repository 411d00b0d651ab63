from __future__ import annotations

import logging

import pytest
from django.db import connection
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_success_is_wrapped_in_the_envelope(api):
    body = api.get("/v1/keys").json()
    assert set(body) == {"success", "data", "error"}
    assert body["success"] is True and body["error"] is None


@pytest.mark.parametrize("path", ["/v1/nothing-here", "/v1/files/x/y/z", "/v1/"])
def test_unknown_routes_are_not_found_in_the_envelope(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert response.json() == {
        "success": False,
        "error": {"code": "NOT_FOUND", "message": "No such endpoint.", "details": {}},
    }


def test_unknown_routes_without_a_key_are_not_found_too(client_for):
    assert client_for(None).get("/v1/nope").json()["error"]["code"] == "NOT_FOUND"


def test_a_method_the_route_does_not_have_is_method_not_allowed(api):
    response = api.put("/v1/keys", {})
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
    assert "GET" in response["Allow"] and "POST" in response["Allow"]


def test_trailing_slash_routes_like_none(api):
    assert api.get("/v1/keys/").status_code == 200


def test_a_database_failure_is_internal_error_without_detail(admin_key):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_key.secret}")
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE accounts_apikey RENAME TO accounts_apikey_gone")
    try:
        response = client.get("/v1/keys")
    finally:
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("ALTER TABLE accounts_apikey_gone RENAME TO accounts_apikey")
    # On PostgreSQL the test's transaction is rolled back, which undoes the rename.
    assert response.status_code == 500
    assert response.json() == {
        "success": False,
        "error": {
            "code": "INTERNAL_ERROR",
            "message": "An unexpected error occurred.",
            "details": {},
        },
    }


def test_a_body_over_the_upload_limit_is_invalid_parameters(api):
    response = api.post("/v1/keys", {"name": "n" * 3_000_000})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_PARAMETERS"


def test_a_huge_authorization_header_is_invalid_api_key(client_for):
    response = client_for("ak_" + "a" * 100_000).get("/v1/keys")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "INVALID_API_KEY"


def test_a_post_to_an_unknown_route_is_not_found_even_with_csrf_checks(admin_key):
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {admin_key.secret}")
    response = client.post("/v1/nothing", {"a": 1})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_a_refused_request_is_logged_once_by_the_access_log_not_again_by_django(api, caplog):
    with caplog.at_level(logging.INFO):
        assert api.get("/v1/nothing-here").status_code == 404
        assert APIClient().get("/v1/keys").status_code == 401
    assert [record for record in caplog.records if record.name == "django.request"] == []
