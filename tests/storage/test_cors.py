"""Browser clients: configured origins pass CORS, preflights need no key, errors stay readable."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

APP = "https://app.example.com"


@pytest.fixture(autouse=True)
def allowed_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [APP]


def preflight(path: str, origin: str = APP, method: str = "GET"):
    return APIClient().options(
        path,
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, range",
    )


@pytest.mark.parametrize(
    ("path", "method"),
    [("/v1/files", "GET"), ("/v1/files/upload", "POST"), ("/v1/keys/key_x", "DELETE")],
)
def test_a_preflight_from_an_allowed_origin_needs_no_key(path, method):
    response = preflight(path, method=method)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP
    allowed = response["Access-Control-Allow-Headers"]
    assert {"authorization", "content-type", "range"} <= set(allowed.split(", "))
    assert method in response["Access-Control-Allow-Methods"]


def test_a_preflight_from_another_origin_is_not_allowed():
    response = preflight("/v1/files", origin="https://evil.example.net")
    assert "Access-Control-Allow-Origin" not in response


def test_a_request_from_an_allowed_origin_can_read_the_rate_limit_headers(api):
    response = api.get("/v1/files", HTTP_ORIGIN=APP)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP
    exposed = response["Access-Control-Expose-Headers"]
    assert "X-RateLimit-Remaining" in exposed and "ETag" in exposed


def test_an_error_reaches_the_browser_with_its_cors_headers():
    response = APIClient().get("/v1/files", HTTP_ORIGIN=APP)
    assert response.status_code == 401
    assert response["Access-Control-Allow-Origin"] == APP


def test_no_origin_is_allowed_unless_configured(settings):
    settings.CORS_ALLOWED_ORIGINS = []
    assert "Access-Control-Allow-Origin" not in preflight("/v1/files")
