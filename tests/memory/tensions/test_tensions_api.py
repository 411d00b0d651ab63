"""The /v1/tensions endpoints: list contradictions, record one, resolve one into a lesson."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory_service.memories.models import Memory
from memory_service.tensions.models import Tension
from tests.memory.factories import ApiKeyFactory, MemoryFactory
from tests.memory.memories.test_turns_api import turn
from tests.memory.tensions.factories import TensionFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/tensions"
SECRET_NOTE = "The deploy token is ghp_4f9KqL2mZx8RtY7vB1nC3dE5gH6jK0pQwS2u"


def issue_paths(answer) -> list[str]:
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"] == "InvalidRequest"
    return [item["path"] for item in answer.json()["issues"]]


def resolve(api, tension_id: str, **body):
    return api.post(f"{URL}/{tension_id}", body)


@pytest.fixture
def pair(org) -> tuple[Memory, Memory]:
    """Two of ``org``'s memories on one subject, older first."""
    older = MemoryFactory(organisation=org, content="We deploy on Tuesdays.", subject="deploys")
    newer = MemoryFactory(organisation=org, content="We deploy on Thursdays.", subject="deploys")
    return older, newer


@pytest.fixture
def tension(org, pair) -> Tension:
    older, newer = pair
    return TensionFactory(organisation=org, older=older, newer=newer)


# Listing


def test_a_turn_that_contradicts_a_held_memory_is_listed_with_both_memories(api, org):
    older = turn(api, "My favourite language is Rust.")["memories"][0]
    newer = turn(api, "My favourite language is Go these days.")["memories"][0]
    answer = api.get(URL)
    assert answer.status_code == 200
    body = answer.json()
    assert body["nextCursor"] is None
    [record] = body["tensions"]
    assert set(record) == {
        "id", "status", "memoryIds", "description", "createdAt", "resolvedAt", "resolution",
        "memories",
    }  # fmt: skip
    assert record["id"].startswith("tns_")
    assert (record["status"], record["resolvedAt"], record["resolution"]) == ("open", None, None)
    assert record["memoryIds"] == [older["id"], newer["id"]]
    assert record["memories"] == [older, newer]
    assert "Rust" in record["description"] and "Go these days" in record["description"]


def test_the_list_is_newest_first_and_filters_by_status(api, org):
    first = TensionFactory(organisation=org)
    second = TensionFactory(organisation=org, status="resolved")
    third = TensionFactory(organisation=org)

    def listed(query: str = "") -> list[str]:
        return [t["id"] for t in api.get(f"{URL}{query}").json()["tensions"]]

    assert listed() == [third.id, second.id, first.id]
    assert listed("?status=open") == [third.id, first.id]
    assert listed("?status=resolved") == [second.id]


@pytest.mark.parametrize(
    ("query", "path"),
    [("status=closed", "status"), ("status=", "status"), ("limit=0", "limit"),
     ("limit=101", "limit"), ("limit=ten", "limit"), ("cursor=!!!", "cursor"),
     ("colour=red", "colour")],
)  # fmt: skip
def test_a_bad_list_parameter_is_invalid_request_naming_it(api, query, path):
    assert path in issue_paths(api.get(f"{URL}?{query}"))


def test_the_cursor_walks_every_tension_once_newest_first(api, org):
    made = [TensionFactory(organisation=org).id for _ in range(7)]
    seen, cursor = [], None
    while True:
        body = api.get(URL, {"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        assert len(body["tensions"]) <= 3
        seen += [t["id"] for t in body["tensions"]]
        cursor = body["nextCursor"]
        if cursor is None:
            break
    assert seen == made[::-1]


def test_the_default_page_holds_twenty(api, org):
    TensionFactory.create_batch(21, organisation=org)
    body = api.get(URL).json()
    assert len(body["tensions"]) == 20 and body["nextCursor"] is not None


def test_listing_costs_the_same_queries_whatever_the_page_holds(api, org):
    TensionFactory(organisation=org)
    api.get(URL)  # the key's last use is written once; later requests only read

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get(URL).status_code == 200
        return len(captured)

    one = queries()
    TensionFactory.create_batch(5, organisation=org, status="resolved")
    assert queries() == one


def test_another_organisations_tensions_are_never_listed(api, org, other_org):
    mine = TensionFactory(organisation=org)
    TensionFactory(organisation=other_org)
    assert [t["id"] for t in api.get(URL).json()["tensions"]] == [mine.id]


# Recording


def test_a_contradiction_is_recorded_older_first_with_a_sentence_naming_both(api, org, pair):
    older, newer = pair
    answer = api.post(URL, {"memoryIds": [newer.id, older.id]})
    assert answer.status_code == 200
    record = answer.json()
    assert record["status"] == "open"
    assert record["memoryIds"] == [older.id, newer.id]
    assert [m["content"] for m in record["memories"]] == [older.content, newer.content]
    assert record["description"] == (
        "On deploys: “We deploy on Thursdays” contradicts “We deploy on Tuesdays”."
    )
    assert Tension.objects.for_org(org).get().id == record["id"]


def test_a_given_description_is_kept(api, org, pair):
    body = {"memoryIds": [m.id for m in pair], "description": "Which day do we deploy?"}
    assert api.post(URL, body).json()["description"] == "Which day do we deploy?"


def test_a_credential_in_the_description_is_stored_redacted(api, org, pair):
    body = {"memoryIds": [m.id for m in pair], "description": f"Seen in chat. {SECRET_NOTE}"}
    description = api.post(URL, body).json()["description"]
    assert "ghp_" not in description and "[redacted]" in description
    assert "ghp_" not in Tension.objects.get().description


def test_long_contents_are_cut_so_that_the_description_stays_within_its_limit(api, org):
    older = MemoryFactory(organisation=org, content="Tuesday " * 240)
    newer = MemoryFactory(organisation=org, content="Thursday " * 240)
    description = api.post(URL, {"memoryIds": [older.id, newer.id]}).json()["description"]
    assert len(description) <= 2000 and description.count("…") == 2


@pytest.mark.parametrize("reverse", [False, True])
def test_a_pair_with_an_open_tension_answers_that_tension(api, org, tension, reverse):
    ids = [tension.older_id, tension.newer_id]
    answer = api.post(URL, {"memoryIds": ids[::-1] if reverse else ids})
    assert answer.status_code == 200 and answer.json()["id"] == tension.id
    assert Tension.objects.count() == 1


def test_a_pair_whose_tension_was_resolved_may_be_recorded_again(api, org, tension):
    assert resolve(api, tension.id, keep="both").status_code == 200
    answer = api.post(URL, {"memoryIds": [tension.older_id, tension.newer_id]})
    assert answer.json()["id"] != tension.id and answer.json()["status"] == "open"


@pytest.mark.parametrize(
    ("memory_ids", "path"),
    [
        (None, "memoryIds"),
        ([], "memoryIds"),
        (["A"], "memoryIds"),
        (["A", "B", "A"], "memoryIds"),
        (["A", "A"], "memoryIds"),
        (["A", 7], "memoryIds[1]"),
        (["A", None], "memoryIds[1]"),
        ("A", "memoryIds"),
        ({"0": "A"}, "memoryIds"),
    ],
)
def test_a_bad_memory_id_list_is_invalid_request(api, org, pair, memory_ids, path):
    ids = {"A": pair[0].id, "B": pair[1].id}
    if isinstance(memory_ids, list):
        memory_ids = [ids.get(item, item) for item in memory_ids]
    body = {} if memory_ids is None else {"memoryIds": memory_ids}
    assert path in issue_paths(api.post(URL, body))
    assert not Tension.objects.exists()


@pytest.mark.parametrize("where", ["foreign", "unknown"])
def test_a_memory_the_caller_does_not_hold_is_an_issue_naming_it(api, org, pair, where):
    absent = MemoryFactory().id if where == "foreign" else "mem_doesnotexist000000"
    answer = api.post(URL, {"memoryIds": [pair[0].id, absent]})
    assert answer.status_code == 400
    assert answer.json()["issues"] == [{"path": "memoryIds[1]", "message": f"No memory {absent}."}]
    assert not Tension.objects.exists()


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"description": "x" * 2001}, "description"),
        ({"description": ""}, "description"),
        ({"description": 5}, "description"),
        ({"status": "open"}, "status"),
    ],
)
def test_a_bad_description_or_an_unknown_field_is_invalid_request(api, org, pair, body, path):
    answer = api.post(URL, {"memoryIds": [m.id for m in pair], **body})
    assert path in issue_paths(answer)


@pytest.mark.parametrize("payload", ['["a list"]', '"a string"', "42", "null", "{not json"])
def test_a_body_that_is_not_an_object_is_invalid_request_at_the_body(api, payload):
    answer = api.post(URL, payload, content_type="application/json")
    assert issue_paths(answer) == [""]


# Resolving


def test_keeping_one_archives_the_other_and_files_the_lesson(api, org, tension):
    older, newer = tension.older, tension.newer
    answer = resolve(api, tension.id, keep=newer.id)
    assert answer.status_code == 200
    record = answer.json()
    assert record["status"] == "resolved" and record["resolvedAt"] is not None
    lesson = Memory.objects.get(pk=record["resolution"]["lessonId"])
    assert record["resolution"] == {"keep": newer.id, "note": None, "lessonId": lesson.id}
    assert [m["tier"] for m in record["memories"]] == ["archive", "working"]
    assert (lesson.kind, lesson.source, lesson.tier) == ("lesson", "tension", "working")
    assert (
        lesson.content == "On deploys: “We deploy on Thursdays” holds, not “We deploy on Tuesdays”."
    )
    older.refresh_from_db(), newer.refresh_from_db()
    assert (older.tier, newer.tier) == ("archive", "working")


def test_keeping_the_older_archives_the_newer(api, org, tension):
    record = resolve(api, tension.id, keep=tension.older_id).json()
    assert [m["tier"] for m in record["memories"]] == ["working", "archive"]
    lesson = Memory.objects.get(pk=record["resolution"]["lessonId"])
    assert lesson.content.startswith("On deploys: “We deploy on Tuesdays” holds")


def test_keeping_both_moves_nothing_and_says_both_hold(api, org, tension):
    record = resolve(api, tension.id, keep="both").json()
    assert record["resolution"]["keep"] == "both"
    assert [m["tier"] for m in record["memories"]] == ["working", "working"]
    lesson = Memory.objects.get(pk=record["resolution"]["lessonId"])
    assert lesson.content == (
        "On deploys, both hold: “We deploy on Tuesdays” and “We deploy on Thursdays”."
    )


def test_a_note_is_kept_as_the_lesson(api, org, tension):
    note = "Deploy day moved to Thursday when the QA rota changed."
    record = resolve(api, tension.id, keep=tension.newer_id, note=note).json()
    assert record["resolution"]["note"] == note
    lesson = Memory.objects.get(pk=record["resolution"]["lessonId"])
    assert (lesson.content, lesson.kind, lesson.source) == (note, "lesson", "tension")


def test_a_restated_lesson_merges_into_the_held_one(api, org):
    note = "Ask which deploy day before planning a release."
    lessons = set()
    for _ in range(2):
        made = TensionFactory(organisation=org)
        lessons.add(resolve(api, made.id, keep="both", note=note).json()["resolution"]["lessonId"])
    [lesson_id] = lessons
    assert Memory.objects.get(pk=lesson_id).times_seen == 2


def test_resolving_a_turns_tension_opens_no_new_one(api, org):
    """The lesson quotes a correction ("these days"); it must not read as a new contradiction."""
    turn(api, "My favourite language is Rust.")
    turn(api, "My favourite language is Go these days.")
    [record] = api.get(URL).json()["tensions"]
    resolved = resolve(api, record["id"], keep=record["memoryIds"][1]).json()
    lesson = Memory.objects.get(pk=resolved["resolution"]["lessonId"])
    assert "Go these days" in lesson.content and "Rust" in lesson.content
    assert api.get(f"{URL}?status=open").json()["tensions"] == []
    assert Tension.objects.for_org(org).count() == 1


def test_long_contents_are_cut_so_that_the_lesson_is_a_valid_memory(api, org):
    older = MemoryFactory(organisation=org, content="Tuesday " * 240)
    newer = MemoryFactory(organisation=org, content="Thursday " * 240)
    made = TensionFactory(organisation=org, older=older, newer=newer)
    record = resolve(api, made.id, keep="both").json()
    assert len(Memory.objects.get(pk=record["resolution"]["lessonId"]).content) <= 2000


def test_resolving_twice_is_invalid_request(api, org, tension):
    assert resolve(api, tension.id, keep="both").status_code == 200
    answer = resolve(api, tension.id, keep=tension.older_id)
    assert issue_paths(answer) == [""]
    assert "already resolved" in answer.json()["message"]
    tension.refresh_from_db()
    assert tension.kept == "both"
    assert Memory.objects.get(pk=tension.older_id).tier == "working"


@pytest.mark.parametrize("keep", ["neither", "mem_doesnotexist000000", "BOTH"])
def test_keeping_something_else_is_invalid_request_at_keep(api, org, tension, keep):
    assert issue_paths(resolve(api, tension.id, keep=keep)) == ["keep"]
    tension.refresh_from_db()
    assert tension.status == "open"


def test_keeping_a_memory_of_another_tension_is_invalid_request(api, org, tension):
    elsewhere = MemoryFactory(organisation=org)
    assert issue_paths(resolve(api, tension.id, keep=elsewhere.id)) == ["keep"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({}, "keep"),
        ({"keep": 3}, "keep"),
        ({"keep": "both", "note": 3}, "note"),
        ({"keep": "both", "note": ""}, "note"),
        ({"keep": "both", "note": "x" * 2001}, "note"),
        ({"keep": "both", "winner": "x"}, "winner"),
    ],
)
def test_a_bad_resolution_body_is_invalid_request(api, org, tension, body, path):
    assert path in issue_paths(api.post(f"{URL}/{tension.id}", body))


def test_a_null_note_is_no_note(api, org, tension):
    record = resolve(api, tension.id, keep="both", note=None).json()
    assert record["resolution"]["note"] is None


def test_a_note_holding_a_credential_is_refused_and_nothing_is_stored(api, org, tension):
    before = set(Memory.objects.values_list("id", "tier"))
    answer = resolve(api, tension.id, keep=tension.newer_id, note=SECRET_NOTE)
    assert issue_paths(answer) == ["note"]
    assert "ghp_" not in str(answer.json())
    assert set(Memory.objects.values_list("id", "tier")) == before
    tension.refresh_from_db()
    assert tension.status == "open"


@pytest.mark.parametrize("where", ["foreign", "unknown"])
def test_a_tension_the_caller_does_not_hold_is_not_found(api, where):
    tension_id = TensionFactory().id if where == "foreign" else "tns_doesnotexist00000"
    answer = resolve(api, tension_id, keep="both")
    assert answer.status_code == 404
    assert answer.json() == {
        "error": "NotFound",
        "message": f"No tension {tension_id}.",
        "resource": "tension",
        "id": tension_id,
    }
    assert Tension.objects.filter(status="open").count() == (1 if where == "foreign" else 0)


def test_a_tension_whose_memory_was_forgotten_is_not_found(api, org, tension):
    assert api.delete(f"/api/v1/memories/{tension.older_id}").status_code == 200
    assert resolve(api, tension.id, keep="both").status_code == 404
    assert api.get(URL).json()["tensions"] == []


def test_forgetting_the_lesson_leaves_the_resolution_without_it(api, org, tension):
    lesson_id = resolve(api, tension.id, keep="both").json()["resolution"]["lessonId"]
    assert api.delete(f"/api/v1/memories/{lesson_id}").status_code == 200
    [record] = api.get(URL).json()["tensions"]
    assert record["resolution"] == {"keep": "both", "note": None, "lessonId": None}


def test_only_a_post_resolves(api, org, tension):
    assert issue_paths(api.get(f"{URL}/{tension.id}")) == ["method"]


# Authentication and scopes


@pytest.mark.parametrize(
    ("method", "path"), [("get", ""), ("post", ""), ("post", "/tns_doesnotexist00000")]
)
def test_without_a_key_every_endpoint_is_unauthorized(client_for, method, path):
    answer = getattr(client_for(None), method)(f"{URL}{path}", {})
    assert answer.status_code == 401 and answer.json()["error"] == "Unauthorized"


@pytest.mark.parametrize(
    ("method", "path", "scope"),
    [("get", "", "memories:read"), ("post", "", "memories:write"),
     ("post", "/tns_doesnotexist00000", "memories:write")],
)  # fmt: skip
def test_each_operation_needs_its_scope(client_for, org, method, path, scope):
    key = ApiKeyFactory(organisation=org, scopes=["stats:read"])
    answer = getattr(client_for(key), method)(f"{URL}{path}", {} if method == "post" else None)
    assert answer.status_code == 403
    assert answer.json()["requiredScope"] == scope


def test_a_read_only_key_lists_but_does_not_resolve(client_for, org, tension):
    reader = client_for(ApiKeyFactory(organisation=org, scopes=["memories:read"]))
    assert reader.get(URL).status_code == 200
    answer = reader.post(f"{URL}/{tension.id}", {"keep": "both"})
    assert answer.status_code == 403 and answer.json()["requiredScope"] == "memories:write"
    tension.refresh_from_db()
    assert tension.status == "open"


def test_the_trailing_slash_is_optional(api, org, tension):
    assert api.get(f"{URL}/").status_code == 200
    assert resolve(api, f"{tension.id}/", keep="both").status_code == 200


def test_head_answers_like_get(api, org):
    assert api.head(URL).status_code == 200


def test_a_subject_with_braces_is_quoted_as_it_is(api, org):
    older = MemoryFactory(organisation=org, content="Plan {A} first.", subject="{plan}")
    newer = MemoryFactory(organisation=org, content="Plan {B} first.", subject="{plan}")
    record = api.post(URL, {"memoryIds": [older.id, newer.id]}).json()
    assert record["description"] == "On {plan}: “Plan {B} first” contradicts “Plan {A} first”."
    lesson_id = resolve(api, record["id"], keep=older.id).json()["resolution"]["lessonId"]
    assert Memory.objects.get(pk=lesson_id).content == (
        "On {plan}: “Plan {A} first” holds, not “Plan {B} first”."
    )
