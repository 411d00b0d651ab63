"""One rule on both services: a query parameter the route does not read is refused, by name."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db

UNKNOWN = "Unknown query parameter."


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("/api/v1/memories?tier=core&sort=asc", "sort"),
        ("/api/v1/tensions?state=open", "state"),
        ("/api/v1/self-model?domains=x", "domains"),
        ("/api/v1/stats?verbose=1", "verbose"),
        ("/api/v1/keys?all=1", "all"),
    ],
)
def test_an_unknown_query_parameter_is_an_issue_at_its_name(api, path, name):
    answer = api.get(path)
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "InvalidRequest"
    assert body["issues"] == [{"path": name, "message": UNKNOWN}]


def test_a_route_that_reads_no_parameters_refuses_any(api, org):
    memory = MemoryFactory(organisation=org)
    answer = api.get(f"/api/v1/memories/{memory.id}?fields=content")
    assert answer.status_code == 400
    assert answer.json()["issues"] == [{"path": "fields", "message": UNKNOWN}]
    recall = api.post("/api/v1/recall?limit=3", {"query": "x"}, format="json")
    assert recall.json()["issues"] == [{"path": "limit", "message": UNKNOWN}]


def test_known_parameters_are_accepted(api):
    assert api.get("/api/v1/memories?tier=core&kind=fact&domain=x&limit=5").status_code == 200
    assert api.get("/api/v1/tensions?status=open&limit=5").status_code == 200
    assert api.get("/api/v1/self-model?domain=x&limit=5").status_code == 200


def test_a_missing_key_is_reported_before_a_parameter():
    assert APIClient().get("/api/v1/stats?verbose=1").status_code == 401
