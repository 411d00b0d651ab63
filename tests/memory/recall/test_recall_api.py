from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings

from memory_service import clock
from memory_service.memories.models import ARCHIVE, Memory
from memory_service.recall.index import unindex
from tests.memory.factories import ApiKeyFactory, MemoryFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/recall"
HIT_FIELDS = {"id", "content", "tier", "kind", "score", "reason"}


def recall(api, query, **body) -> dict:
    response = api.post(URL, {"query": query, **body})
    assert response.status_code == 200, response.content
    return response.json()


def ids(body: dict) -> list[str]:
    return [hit["id"] for hit in body["results"]]


def issues(response) -> list[dict]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "InvalidRequest"
    return body["issues"]


# Matching


def test_a_match_answers_the_memory_with_its_fields(api, org):
    memory = MemoryFactory(organisation=org, content="Never deploy on Fridays.", kind="instruction")
    body = recall(api, "deploy friday")
    assert body["empty"] is False
    (hit,) = body["results"]
    assert set(hit) == HIT_FIELDS
    assert hit["id"] == memory.pk
    assert hit["content"] == "Never deploy on Fridays."
    assert (hit["tier"], hit["kind"]) == ("working", "instruction")
    assert isinstance(hit["score"], float) and hit["score"] > 0


def test_stemming_matches_inflections(api, org):
    memory = MemoryFactory(organisation=org, content="The team deploys to production on Thursdays.")
    MemoryFactory(organisation=org, content="The user drinks coffee.")
    assert ids(recall(api, "deploying")) == [memory.pk]


def test_the_rarer_term_ranks_first(api, org):
    common = [MemoryFactory(organisation=org, content=f"Team note {n}.") for n in range(4)]
    rare = MemoryFactory(organisation=org, content="Team uses Kotlin.")
    assert ids(recall(api, "team kotlin"))[0] == rare.pk
    assert set(ids(recall(api, "team kotlin"))) == {rare.pk, *(m.pk for m in common)}


def test_reason_names_the_matched_terms_in_the_query_s_own_words(api, org):
    MemoryFactory(organisation=org, content="Never deploy on Fridays.")
    (hit,) = recall(api, "Deploying on FRIDAY afternoons")["results"]
    assert hit["reason"] == "matched: Deploying, FRIDAY"


def test_reason_names_only_the_terms_each_memory_holds(api, org):
    MemoryFactory(organisation=org, content="Deploy with care.")
    MemoryFactory(organisation=org, content="Fridays are quiet.")
    reasons = {hit["content"]: hit["reason"] for hit in recall(api, "deploy friday")["results"]}
    assert reasons == {
        "Deploy with care.": "matched: deploy",
        "Fridays are quiet.": "matched: friday",
    }


def test_subject_and_domain_are_matched_as_well_as_content(api, org):
    memory = MemoryFactory(
        organisation=org, content="Four spaces.", subject="indentation", domain="coding"
    )
    assert ids(recall(api, "indentation")) == [memory.pk]
    assert ids(recall(api, "coding")) == [memory.pk]


def test_equal_scores_are_ordered_by_id(api, org):
    memories = [MemoryFactory(organisation=org, content=f"Kotlin build {n}") for n in range(6)]
    body = recall(api, "kotlin")
    assert ids(body) == sorted(m.pk for m in memories)
    assert len({hit["score"] for hit in body["results"]}) == 1


def test_the_same_query_answers_the_same_order(api, org):
    for n in range(12):
        MemoryFactory(organisation=org, content=f"Kotlin and Gradle build {n} " + "notes " * n)
    first = recall(api, "kotlin gradle notes")
    assert all(recall(api, "kotlin gradle notes") == first for _ in range(3))
    scores = [hit["score"] for hit in first["results"]]
    assert scores == sorted(scores, reverse=True)


def test_archived_memories_are_still_recalled(api, org):
    memory = MemoryFactory(organisation=org, content="Old laptop was a ThinkPad.", tier=ARCHIVE)
    (hit,) = recall(api, "thinkpad")["results"]
    assert (hit["id"], hit["tier"]) == (memory.pk, "archive")


# Nothing found


def test_no_match_answers_empty(api, org):
    MemoryFactory(organisation=org, content="Never deploy on Fridays.")
    assert recall(api, "saxophone tuning") == {"results": [], "empty": True}


def test_a_query_of_stop_words_alone_answers_empty(api, org):
    MemoryFactory(organisation=org, content="What it is, is what it was.")
    assert recall(api, "what is it") == {"results": [], "empty": True}


def test_an_organisation_without_memories_answers_empty(api):
    assert recall(api, "deploy") == {"results": [], "empty": True}


def test_another_organisation_s_memories_are_never_returned(api, org, other_org):
    mine = MemoryFactory(organisation=org, content="Deploy on Thursdays.")
    MemoryFactory(organisation=other_org, content="Deploy deploy deploy on Thursdays.")
    assert ids(recall(api, "deploy thursday")) == [mine.pk]


def test_another_organisation_s_match_alone_answers_empty(api, other_org):
    MemoryFactory(organisation=other_org, content="Deploy on Thursdays.")
    assert recall(api, "deploy") == {"results": [], "empty": True}


def test_a_forgotten_memory_is_no_longer_recalled(api, org):
    kept = MemoryFactory(organisation=org, content="Deploy on Thursdays.")
    gone = MemoryFactory(organisation=org, content="Never deploy on Fridays.")
    unindex(org_id=org.pk, memory_id=gone.id)
    gone.delete()
    assert ids(recall(api, "deploy")) == [kept.pk]


# Limit


def test_the_limit_defaults_to_the_configured_default(api, org):
    for n in range(12):
        MemoryFactory(organisation=org, content=f"Kotlin build {n}")
    assert len(recall(api, "kotlin")["results"]) == 8
    with override_settings(MEMORY_DEFAULT_RECALL_LIMIT=3):
        assert len(recall(api, "kotlin")["results"]) == 3


def test_the_limit_cuts_the_results_to_the_best(api, org):
    memories = [MemoryFactory(organisation=org, content=f"Kotlin build {n}") for n in range(5)]
    assert ids(recall(api, "kotlin", limit=2)) == sorted(m.pk for m in memories)[:2]


def test_the_limit_may_be_50(api, org):
    for n in range(55):
        MemoryFactory(organisation=org, content=f"Kotlin build {n}")
    assert len(recall(api, "kotlin", limit=50)["results"]) == 50


@pytest.mark.parametrize("limit", [0, 51, -1, "8", 2.5, True, None])
def test_a_limit_that_is_not_an_integer_from_1_to_50_is_invalid(api, limit):
    (issue,) = issues(api.post(URL, {"query": "kotlin", "limit": limit}))
    assert issue["path"] == "limit"


# Invalid bodies


@pytest.mark.parametrize("body", [{}, {"query": ""}, {"query": "   "}, {"query": None}])
def test_a_missing_or_blank_query_is_invalid(api, body):
    assert issues(api.post(URL, body))[0]["path"] == "query"


@pytest.mark.parametrize("query", [5, ["deploy"], {"q": "deploy"}])
def test_a_query_that_is_not_a_string_is_invalid(api, query):
    assert issues(api.post(URL, {"query": query}))[0]["path"] == "query"


def test_a_query_over_1000_characters_is_invalid_but_surrounding_spaces_do_not_count(api):
    assert issues(api.post(URL, {"query": "a" * 1001}))[0]["path"] == "query"
    assert api.post(URL, {"query": "  " + "a" * 1000 + "  "}).status_code == 200


def test_an_unknown_field_is_invalid_at_its_own_path(api):
    assert [issue["path"] for issue in issues(api.post(URL, {"query": "x", "top": 3}))] == ["top"]


def test_a_body_that_is_not_json_is_invalid(api):
    response = api.post(URL, "query=deploy", content_type="application/x-www-form-urlencoded")
    assert issues(response)[0]["path"] == ""


def test_a_trailing_slash_answers_too(api):
    assert api.post(URL + "/", {"query": "deploy"}).status_code == 200


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete", "options"])
def test_other_methods_are_invalid_and_allow_names_post_alone(api, method):
    response = getattr(api, method)(URL)
    assert issues(response)[0]["path"] == "method"
    assert response.headers["Allow"] == "POST"


# Authentication


def test_without_a_key_the_answer_is_unauthorized(client_for):
    response = client_for(None).post(URL, {"query": "deploy"})
    assert response.status_code == 401
    assert response.json()["error"] == "Unauthorized"


def test_a_key_without_memories_read_is_forbidden(org, client_for):
    key = ApiKeyFactory(organisation=org, scopes=["stats:read"])
    response = client_for(key).post(URL, {"query": "deploy"})
    assert response.status_code == 403
    body = response.json()
    assert (body["error"], body["requiredScope"]) == ("Forbidden", "memories:read")


def test_a_key_with_memories_read_alone_may_recall(org, client_for):
    key = ApiKeyFactory(organisation=org, scopes=["memories:read"])
    assert client_for(key).post(URL, {"query": "deploy"}).status_code == 200


# Last use


def test_recalled_memories_record_their_last_use(api, org):
    hit = MemoryFactory(organisation=org, content="Deploy on Thursdays.")
    miss = MemoryFactory(organisation=org, content="Kotlin at work.")
    before = clock.now()
    recall(api, "deploy")
    hit.refresh_from_db()
    miss.refresh_from_db()
    assert hit.last_used_at >= before
    assert miss.last_used_at is None


def test_last_use_is_written_at_most_once_a_minute(api, org):
    recent = clock.now() - timedelta(seconds=30)
    stale = clock.now() - timedelta(minutes=5)
    fresh = MemoryFactory(organisation=org, content="Deploy on Thursdays.", last_used_at=recent)
    old = MemoryFactory(organisation=org, content="Deploy with care.", last_used_at=stale)
    recall(api, "deploy")
    assert Memory.objects.get(pk=fresh.pk).last_used_at == recent
    assert Memory.objects.get(pk=old.pk).last_used_at > stale
