"""GET /v1/stats: counts by tier, tensions by status, weak domains, active tensions, turns."""

from __future__ import annotations

import pytest

from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE, STATS_READ
from memory_service.tensions.models import Tension
from tests.memory.factories import ApiKeyFactory, MemoryFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/stats"


def stats(api) -> dict:
    response = api.get(URL)
    assert response.status_code == 200, response.content
    return response.json()


def open_tension(api, first, second) -> str:
    body = {"memoryIds": [first.id, second.id], "description": "They disagree."}
    response = api.post("/api/v1/tensions", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()["id"]


def test_an_organisation_holding_nothing_has_zero_everywhere(api):
    assert stats(api) == {
        "memories": {"core": 0, "working": 0, "archive": 0, "total": 0},
        "tensions": {"open": 0, "resolved": 0},
        "weakDomains": [],
        "activeTensions": [],
        "turns": 0,
    }


def test_memories_are_counted_by_tier(api, org):
    for tier, count in (("core", 1), ("working", 3), ("archive", 2)):
        MemoryFactory.create_batch(count, organisation=org, tier=tier)
    assert stats(api)["memories"] == {"core": 1, "working": 3, "archive": 2, "total": 6}


def test_tensions_are_counted_by_status_and_the_open_ones_listed_newest_first(api, org):
    memories = MemoryFactory.create_batch(24, organisation=org)
    opened = [open_tension(api, memories[2 * n], memories[2 * n + 1]) for n in range(12)]
    resolved = opened.pop(0)
    body = {"keep": memories[0].id}
    assert api.post(f"/api/v1/tensions/{resolved}", body, format="json").status_code == 200
    Tension.objects.filter(pk=opened[3]).update(created_at="2030-01-01T00:00:00Z")
    body = stats(api)
    assert body["tensions"] == {"open": 11, "resolved": 1}
    active = body["activeTensions"]
    assert len(active) == 10 and active[0]["id"] == opened[3]
    assert all(t["status"] == "open" and len(t["memories"]) == 2 for t in active)
    created = [t["createdAt"] for t in active]
    assert created == sorted(created, reverse=True)


def test_weak_domains_are_listed_weakest_first(api):
    outcomes = [("deploys", False), ("deploys", False), ("billing", False), ("coding", True)]
    for domain, success in outcomes:
        body = {"domain": domain, "success": success}
        assert api.post("/api/v1/self-model/outcome", body, format="json").status_code == 200
    weak = stats(api)["weakDomains"]
    assert [(d["domain"], d["reliabilityScore"]) for d in weak] == [
        ("deploys", 0.4),
        ("billing", 0.533),
    ]


def test_turns_count_those_learned_from_not_lookups(api):
    for message in ("I prefer tabs for indentation.", "What time is it?", "I live in Lisbon."):
        body = {"userMessage": message, "assistantResponse": "Ok."}
        assert api.post("/api/v1/turns", body, format="json").status_code == 200
    assert stats(api)["turns"] == 2


def test_stats_never_count_another_organisations_records(api, other_org, client_for):
    theirs = client_for(ApiKeyFactory(organisation=other_org))
    first, second = MemoryFactory.create_batch(2, organisation=other_org)
    open_tension(theirs, first, second)
    theirs.post("/api/v1/self-model/outcome", {"domain": "x", "success": False}, format="json")
    theirs.post("/api/v1/turns", {"userMessage": "I live in Oslo.", "assistantResponse": ""})
    body = stats(api)
    assert body["memories"]["total"] == 0 and body["tensions"] == {"open": 0, "resolved": 0}
    assert body["weakDomains"] == [] and body["activeTensions"] == [] and body["turns"] == 0


def test_stats_need_stats_read(org, client_for):
    key = ApiKeyFactory(organisation=org, scopes=[MEMORIES_READ, MEMORIES_WRITE])
    response = client_for(key).get(URL)
    assert response.status_code == 403
    assert response.json() == {
        "error": "Forbidden",
        "message": "This API key lacks the stats:read scope.",
        "requiredScope": STATS_READ,
    }
    assert (
        client_for(ApiKeyFactory(organisation=org, scopes=[STATS_READ])).get(URL).status_code == 200
    )


def test_stats_need_a_key(client_for):
    response = client_for(None).get(URL)
    assert response.status_code == 401 and response.json()["error"] == "Unauthorized"


def test_stats_answer_only_get(api):
    assert api.post(URL, {}, format="json").status_code == 400
