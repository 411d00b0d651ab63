"""Input no database can store answers 400 InvalidRequest, never 500."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def invalid(response) -> dict:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "InvalidRequest"
    return body


@pytest.mark.parametrize("path", ["/api/v1/memories", "/api/v1/turns", "/api/v1/context"])
@pytest.mark.parametrize(
    "body",
    [
        '{"content": ' + "[" * 1000 + "]" * 1000 + "}",
        '{"userMessage": "half \\ud800 a pair"}',
        '{"memories": [{"content": "lone \\udfff"}]}',
    ],
)
def test_bodies_that_cannot_be_stored_are_invalid_requests(api, path, body):
    invalid(api.post(path, data=body, content_type="application/json"))


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/api/v1/memories/mem%00x"),
        ("patch", "/api/v1/memories/mem%00x"),
        ("delete", "/api/v1/memories/mem%00x"),
        ("post", "/api/v1/tensions/ten%00x"),
        ("get", "/api/v1/memories?domain=a%00b"),
        ("get", "/api/v1/tensions?status=open%00"),
    ],
)
def test_a_nul_in_the_path_or_query_is_an_invalid_request(api, method, path):
    invalid(getattr(api, method)(path))


@pytest.mark.parametrize("path", ["/api/v1/memories", "/api/v1/turns", "/api/v1/context"])
def test_a_nul_in_a_body_is_refused_by_the_fields_not_a_500(api, path):
    body = '{"userMessage": "nul \\u0000 inside", "memories": [{"content": "a\\u0000b"}]}'
    response = api.post(path, data=body, content_type="application/json")
    assert response.status_code in {200, 201, 400}, response.content
