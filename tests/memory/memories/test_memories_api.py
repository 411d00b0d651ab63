"""The /v1/memories endpoints: store outright, list with tier counts, read, move, forget."""

from __future__ import annotations

import pytest

from memory_service.memories.models import Memory
from memory_service.recall.models import Document, PostingBlock
from tests.memory.factories import ApiKeyFactory, MemoryFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/memories"


def test_one_content_is_stored_outright_and_answered_like_a_turn(api, org):
    answer = api.post(URL, {"content": "The release train leaves every second Monday."})
    assert answer.status_code == 200
    body = answer.json()
    assert body["counts"] == {"stored": 1, "merged": 0, "rejected": 0, "tensions": 0, "promoted": 0}
    [memory] = body["memories"]
    assert set(memory) == {
        "id", "content", "kind", "tier", "subject", "domain", "source", "sessionId",
        "timesSeen", "createdAt", "updatedAt", "lastUsedAt",
    }  # fmt: skip
    assert memory["id"].startswith("mem_")
    assert (memory["kind"], memory["tier"], memory["source"]) == ("fact", "working", "direct")
    assert memory["domain"] is None and memory["lastUsedAt"] is None


def test_several_memories_keep_their_kind_tier_and_domain(api, org):
    body = api.post(
        URL,
        {
            "memories": [
                {"content": "Never force-push to main.", "kind": "instruction", "tier": "core"},
                {"content": "Clara prefers morning meetings.", "domain": "work"},
            ],
            "sessionId": "s-9",
        },
    ).json()
    assert body["counts"]["stored"] == 2
    first, second = body["memories"]
    assert (first["kind"], first["tier"]) == ("instruction", "core")
    assert (second["domain"], second["sessionId"]) == ("work", "s-9")


def test_a_restatement_folds_into_the_held_memory(api, org):
    held = api.post(URL, {"content": "Clara prefers morning meetings."}).json()["memories"][0]
    body = api.post(URL, {"content": "  clara PREFERS morning meetings!  "}).json()
    assert body["counts"] == {"stored": 0, "merged": 1, "rejected": 0, "tensions": 0, "promoted": 0}
    assert body["memories"][0]["id"] == held["id"] and body["memories"][0]["timesSeen"] == 2


def test_a_secret_in_a_direct_store_is_rejected_and_not_stored(api, org):
    body = api.post(
        URL,
        {
            "memories": [
                {"content": "The deploy token is ghp_4f9KqL2mZx8RtY7vB1nC3dE5gH6jK0pQwS2u"},
                {"content": "Deploys go through the CI pipeline."},
            ]
        },
    ).json()
    assert body["counts"]["stored"] == 1 and body["counts"]["rejected"] == 1
    assert body["rejected"][0]["reason"] == "secret"
    assert "ghp_4f9K" not in body["rejected"][0]["content"]
    assert not Memory.objects.filter(content__contains="ghp_").exists()


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({}, "content"),
        ({"content": ""}, "content"),
        ({"content": "x" * 2001}, "content"),
        ({"content": "ok", "kind": "opinion"}, "kind"),
        ({"content": "ok", "tier": "attic"}, "tier"),
        ({"memories": []}, "memories"),
        ({"memories": [{"content": "a"}], "content": "b"}, "content"),
        ({"memories": [{"content": "a"}, {"kind": "fact"}]}, "memories[1].content"),
        ({"memories": [{"content": "ok"}] * 101}, "memories"),
    ],
)
def test_a_bad_store_is_invalid_request_naming_the_field(api, body, path):
    answer = api.post(URL, body)
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"] == "InvalidRequest"
    assert path in [issue["path"] for issue in answer.json()["issues"]]


def test_the_tier_counts_follow_every_store_move_and_deletion(api, org, other_org):
    def counts() -> dict[str, int]:
        return api.get(URL).json()["counts"]

    memories = [MemoryFactory(organisation=org) for _ in range(3)]
    MemoryFactory(organisation=other_org, tier="core")
    assert counts() == {"core": 0, "working": 3, "archive": 0, "total": 3}
    assert api.patch(f"{URL}/{memories[0].id}", {"tier": "core"}).status_code == 200
    assert api.patch(f"{URL}/{memories[1].id}", {"tier": "archive"}).status_code == 200
    assert counts() == {"core": 1, "working": 1, "archive": 1, "total": 3}
    assert api.delete(f"{URL}/{memories[0].id}").status_code == 200
    assert api.post(URL, {"content": "Biscuit is a beagle."}).status_code == 200
    assert counts() == {"core": 0, "working": 2, "archive": 1, "total": 3}


def test_the_list_is_newest_first_with_tier_counts_of_everything_held(api, org):
    core = MemoryFactory(organisation=org, tier="core")
    working = MemoryFactory(organisation=org)
    MemoryFactory(organisation=org, tier="archive")
    MemoryFactory()  # another organisation's
    body = api.get(URL).json()
    assert body["counts"] == {"core": 1, "working": 1, "archive": 1, "total": 3}
    assert [m["id"] for m in body["memories"]][1:] == [working.id, core.id]
    assert body["nextCursor"] is None


@pytest.mark.parametrize(
    ("query", "expected"), [("tier=core", ["a"]), ("kind=lesson", ["b"]), ("domain=food", ["c"])]
)
def test_the_list_filters_by_tier_kind_and_domain(api, org, query, expected):
    made = {
        "a": MemoryFactory(organisation=org, tier="core"),
        "b": MemoryFactory(organisation=org, kind="lesson"),
        "c": MemoryFactory(organisation=org, domain="food"),
    }
    body = api.get(f"{URL}?{query}").json()
    assert [m["id"] for m in body["memories"]] == [made[name].id for name in expected]
    assert body["counts"]["total"] == 3


def test_the_cursor_walks_every_memory_once(api, org):
    made = {MemoryFactory(organisation=org).id for _ in range(7)}
    seen, cursor = [], None
    while True:
        body = api.get(URL, {"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        seen += [m["id"] for m in body["memories"]]
        cursor = body["nextCursor"]
        if cursor is None:
            break
    assert len(seen) == 7 and set(seen) == made


@pytest.mark.parametrize(
    ("query", "path"),
    [("tier=attic", "tier"), ("kind=x", "kind"), ("limit=0", "limit"), ("limit=101", "limit"),
     ("cursor=!!!", "cursor"), ("colour=red", "colour")],
)  # fmt: skip
def test_a_bad_list_parameter_is_invalid_request_naming_it(api, query, path):
    answer = api.get(f"{URL}?{query}")
    assert answer.status_code == 400
    assert path in [issue["path"] for issue in answer.json()["issues"]]


def test_one_memory_is_answered_in_full(api, org):
    memory = MemoryFactory(organisation=org, subject="shell", domain="tools")
    body = api.get(f"{URL}/{memory.id}").json()
    assert (body["id"], body["subject"], body["domain"]) == (memory.id, "shell", "tools")


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_another_organisations_memory_answers_not_found(api, method):
    foreign = MemoryFactory()
    body = None if method == "get" else {"tier": "core"}  # on a GET it would be a query
    answer = getattr(api, method)(f"{URL}/{foreign.id}", body)
    assert answer.status_code == 404
    assert answer.json() == {
        "error": "NotFound",
        "message": f"No memory {foreign.id}.",
        "resource": "memory",
        "id": foreign.id,
    }
    assert Memory.objects.filter(pk=foreign.id, tier="working").exists()


def test_patch_moves_a_memory_between_tiers(api, org):
    memory = MemoryFactory(organisation=org)
    for tier in ["core", "archive", "working", "archive"]:
        answer = api.patch(f"{URL}/{memory.id}", {"tier": tier})
        assert answer.status_code == 200 and answer.json()["tier"] == tier
    memory.refresh_from_db()
    assert memory.tier == "archive"


@pytest.mark.parametrize(
    ("body", "path"), [({"tier": "attic"}, "tier"), ({}, "tier"), ({"content": "new"}, "content")]
)
def test_patch_with_an_unknown_tier_or_field_is_invalid_request(api, org, body, path):
    memory = MemoryFactory(organisation=org)
    answer = api.patch(f"{URL}/{memory.id}", body)
    assert answer.status_code == 400 and answer.json()["error"] == "InvalidRequest"
    assert path in [issue["path"] for issue in answer.json()["issues"]]


def test_delete_forgets_the_memory_and_its_index_entries(api, org):
    memory = MemoryFactory(organisation=org, content="Biscuit is a beagle.")
    answer = api.delete(f"{URL}/{memory.id}")
    assert answer.status_code == 200 and answer.json()["id"] == memory.id
    assert not Memory.objects.filter(pk=memory.id).exists()
    assert not Document.objects.filter(memory_id=memory.id).exists()
    assert not PostingBlock.objects.filter(organisation=org).exists()
    assert api.get(f"{URL}/{memory.id}").status_code == 404
    assert api.post("/api/v1/recall", {"query": "beagle"}).json()["empty"] is True


@pytest.mark.parametrize(
    ("method", "scope"),
    [("get", "memories:read"), ("post", "memories:write")],
)
def test_each_operation_needs_its_scope(client_for, org, method, scope):
    key = ApiKeyFactory(organisation=org, scopes=["stats:read"])
    answer = getattr(client_for(key), method)(URL, {"content": "x"} if method == "post" else None)
    assert answer.status_code == 403
    assert answer.json()["requiredScope"] == scope
