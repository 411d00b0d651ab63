"""One rule on both services: a query parameter the route does not read is refused, by name."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.storage.envelope import data_of, error_of
from tests.storage.uploading import upload_file

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path",
    [
        "/v1/files?sortby=name",  # a misspelt sortBy
        "/v1/folders?parent=root",
        "/v1/keys?per_page=5",
        "/v1/billing?verbose=1",
        "/v1/billing/usage?period=day&granularity=hour&tz=UTC",
    ],
)
def test_an_unknown_query_parameter_is_invalid_parameters_naming_it(api, path):
    error = error_of(api.get(path), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    unknown = path.rsplit("&", 1)[-1].split("?")[-1].split("=")[0]
    assert error["details"] == {unknown: "Unknown query parameter."}


def test_every_known_parameter_is_accepted(api):
    query = "page=1&limit=5&folderId=&type=image&search=a&sortBy=name&sortOrder=asc"
    assert data_of(api.get(f"/v1/files?{query}"))["files"] == []
    assert data_of(api.get("/v1/folders?page=1&limit=5&parentFolderId=root"))["folders"] == []
    assert data_of(api.get("/v1/keys?page=1&limit=5"))["keys"]
    usage = "/v1/billing/usage?period=day&granularity=hour&start=2026-01-01T00:00:00Z"
    assert data_of(api.get(usage))["period"]


def test_a_route_that_reads_no_parameters_refuses_any(api):
    file = upload_file(api, "a.txt", b"hello")
    error = error_of(api.get(f"/v1/files/{file['id']}?fields=name"), 400)
    assert error["details"] == {"fields": "Unknown query parameter."}


def test_a_parameter_may_be_named_like_the_errors_own_fields(api):
    error = error_of(api.get("/v1/files?message=x&code=y"), 400)
    assert error["message"] != "x"
    assert error["details"] == {
        "code": "Unknown query parameter.",
        "message": "Unknown query parameter.",
    }


def test_a_missing_key_is_reported_before_a_parameter():
    error = error_of(APIClient().get("/v1/files?sortby=name"), 401)
    assert error["code"] == "INVALID_API_KEY"


def test_a_method_the_route_does_not_serve_is_reported_before_a_parameter(api):
    error = error_of(api.put("/v1/files?sortby=name"), 405)
    assert error["code"] == "METHOD_NOT_ALLOWED"
