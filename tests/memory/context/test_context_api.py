"""POST /v1/context: the block in its sections, every line accounted for, under the ceiling."""

from __future__ import annotations

import json

import pytest

from memory_service.accounts.scopes import MEMORIES_WRITE
from memory_service.context import tokens
from memory_service.memories.models import Memory
from tests.memory.factories import ApiKeyFactory, MemoryFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/context"


def build(api, message: str = "", **body) -> dict:
    response = api.post(URL, {"userMessage": message, **body}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def sections(block: dict) -> list[str]:
    return [entry["section"] for entry in block["entries"]]


def ids_in(block: dict, section: str) -> list[str]:
    return [e["memoryId"] for e in block["entries"] if e["section"] == section]


def fail_outcome(api, domain: str, pattern: str | None = None) -> None:
    body = {"domain": domain, "success": False}
    if pattern:
        body["failurePattern"] = pattern
    assert api.post("/api/v1/self-model/outcome", body, format="json").status_code == 200


def assert_accounted(block: dict, ceiling: int = 2000) -> None:
    lines = block["text"].split("\n") if block["text"] else []
    assert [entry["line"] for entry in block["entries"]] == lines
    assert all(entry["tokens"] == tokens.count(entry["line"]) for entry in block["entries"])
    assert block["totalTokens"] == tokens.count(block["text"]) <= ceiling


# The block and its sections


def test_an_organisation_holding_nothing_gets_an_empty_block(api):
    assert build(api, "Hello") == {"text": "", "entries": [], "totalTokens": 0, "truncated": False}


def test_the_sections_come_in_order_and_every_line_is_accounted_for(api, org):
    fail_outcome(api, "deploys", "forgot the migration")
    core = MemoryFactory(organisation=org, content="I deploy on Thursdays.", tier="core")
    kofi = MemoryFactory(organisation=org, content="Kofi is my sous chef at Harbour Street.")
    other = MemoryFactory(organisation=org, content="I keep sourdough starter in the fridge.")
    block = build(api, "Can you ask Kofi about the deploy?")
    assert sections(block) == ["guardrails", "core", "index", "index", "triggered"]
    guardrail = block["entries"][0]
    assert guardrail["domain"] == "deploys" and guardrail["memoryId"] is None
    assert "forgot the migration" in guardrail["line"] and "below 0.6" in guardrail["reason"]
    assert ids_in(block, "core") == [core.id]
    assert ids_in(block, "index") == [kofi.id, other.id]  # the match first
    assert ids_in(block, "triggered") == [kofi.id]
    assert block["entries"][-1]["line"].endswith(kofi.content)
    assert block["truncated"] is False
    assert_accounted(block)


def test_a_triggered_bodys_reason_names_the_term_that_triggered_it(api, org):
    memory = MemoryFactory(organisation=org, content="The staging database is db-staging-02.")
    block = build(api, "why is db-staging-02 slow")
    (entry,) = [e for e in block["entries"] if e["section"] == "triggered"]
    assert entry["memoryId"] == memory.id and '"db-staging-02"' in entry["reason"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("Kofi is my sous chef.", "Ask Kofi tomorrow"),  # a name
        ("The gate code changed on 14 March.", "what happened on the 14th or 14"),  # a number
        ("Config lives in deploy/nginx/site.conf.", "open deploy/nginx/site.conf"),  # a path
        ("Ticket ENG-4411 tracks the flaky test.", "close ENG-4411"),  # an identifier
        ("We call the release “blue harbour”.", 'is "blue harbour" ready'),  # a quoted phrase
    ],
)
def test_each_kind_of_concrete_term_triggers_the_body_that_holds_it(api, org, content, message):
    memory = MemoryFactory(organisation=org, content=content)
    assert ids_in(build(api, message), "triggered") == [memory.id]


@pytest.mark.parametrize(
    "message",
    [
        "what about the thing we discussed and where it is",  # stop words and plain words
        "Release is ready",  # a capital that only opens the sentence
        "is blue ready",  # one word of a phrase the memory holds
    ],
)
def test_a_message_naming_nothing_concrete_triggers_nothing(api, org, message):
    MemoryFactory(organisation=org, content="We call the release blue harbour; it is ready.")
    MemoryFactory(organisation=org, content="The thing we discussed is where it is.")
    assert ids_in(build(api, message), "triggered") == []


def test_a_phrase_triggers_only_a_memory_holding_it_as_written(api, org):
    MemoryFactory(organisation=org, content="Harbour duty is blue this week.")
    held = MemoryFactory(organisation=org, content="The release is called blue harbour.")
    assert ids_in(build(api, 'ship "blue harbour"'), "triggered") == [held.id]


def test_a_term_the_transcript_already_holds_triggers_nothing(api, org):
    MemoryFactory(organisation=org, content="Kofi is my sous chef.")
    block = build(api, "Ask Kofi", transcript="user: did kofi call?\nassistant: not yet")
    assert ids_in(block, "triggered") == []


def test_a_body_the_transcript_already_holds_is_not_repeated(api, org):
    MemoryFactory(organisation=org, content="Kofi is my sous chef.")
    transcript = "You told me: Kofi   is my sous chef. And KOFI-2 is the van."
    block = build(api, "Ask Kofi", transcript=transcript.replace("Kofi   is", "kofi is"))
    assert ids_in(block, "triggered") == []


def test_the_sessions_stored_turns_are_its_transcript(api, org):
    chef = MemoryFactory(organisation=org, content="Kofi is my sous chef.")
    turn = {"userMessage": "Kofi starts on Monday.", "assistantResponse": "Noted."}
    api.post("/api/v1/turns", {**turn, "sessionId": "s-1"}, format="json")
    assert ids_in(build(api, "Ask Kofi", sessionId="s-1"), "triggered") == []
    assert chef.id in ids_in(build(api, "Ask Kofi", sessionId="s-2"), "triggered")


def test_only_working_memories_trigger_and_archived_ones_never_appear(api, org):
    MemoryFactory(organisation=org, content="Kofi was my sous chef.", tier="archive")
    core = MemoryFactory(organisation=org, content="Kofi runs the pass.", tier="core")
    block = build(api, "Ask Kofi")
    assert [e["memoryId"] for e in block["entries"]] == [core.id]


def test_a_memory_of_another_organisation_never_appears(api, org, other_org):
    MemoryFactory(organisation=other_org, content="Kofi is their sous chef.", tier="core")
    MemoryFactory(organisation=other_org, content="Kofi works at Harbour Street.")
    assert build(api, "Ask Kofi about Harbour Street")["entries"] == []


# The index


def test_the_index_lists_the_most_relevant_working_memories_first(api, org, settings):
    settings.MEMORY_MAX_INDEX_ITEMS = 3
    recent = [MemoryFactory(organisation=org, content=f"Plain note number {n}.") for n in range(5)]
    match = MemoryFactory(organisation=org, content="The espresso grinder is set to 12.")
    Memory.objects.filter(pk=match.pk).update(updated_at="2020-01-01T00:00:00Z")
    listed = ids_in(build(api, "espresso"), "index")
    assert listed[0] == match.id and len(listed) == 3
    assert set(listed[1:]) <= {memory.id for memory in recent}


def test_without_a_match_the_index_lists_the_most_recently_updated(api, org, settings):
    settings.MEMORY_MAX_INDEX_ITEMS = 2
    old, mid, new = (MemoryFactory(organisation=org, content=f"Note {w}.") for w in "abc")
    for memory, year in ((old, 2020), (mid, 2021), (new, 2022)):
        Memory.objects.filter(pk=memory.pk).update(updated_at=f"{year}-01-01T00:00:00Z")
    assert ids_in(build(api, ""), "index") == [new.id, mid.id]


def test_an_index_line_is_one_short_line(api, org):
    MemoryFactory(organisation=org, content="First line\nsecond line " + "word " * 100)
    (entry,) = build(api, "")["entries"]
    assert "\n" not in entry["line"] and len(entry["line"]) <= len("Index: ") + 101
    assert entry["line"].endswith("…")


def test_an_index_of_zero_items_lists_nothing(api, org, settings):
    settings.MEMORY_MAX_INDEX_ITEMS = 0
    MemoryFactory(organisation=org, content="Note.")
    assert build(api, "")["entries"] == []


# forceFull


def test_force_full_pins_bodies_whatever_their_tier(api, org):
    archived = MemoryFactory(organisation=org, content="An old decision.", tier="archive")
    working = MemoryFactory(organisation=org, content="A working note.")
    block = build(api, "", forceFull=[archived.id, working.id, archived.id])
    pinned = [e for e in block["entries"] if e["section"] == "core"]
    assert [e["memoryId"] for e in pinned] == [archived.id, working.id]
    assert all(e["reason"] == "pinned by forceFull" for e in pinned)
    assert ids_in(block, "index") == []  # its body is in the block already


def test_force_full_naming_a_missing_or_foreign_memory_is_refused_naming_it(api, org, other_org):
    mine = MemoryFactory(organisation=org, content="Mine.")
    theirs = MemoryFactory(organisation=other_org, content="Theirs.")
    response = api.post(
        URL, {"userMessage": "", "forceFull": [mine.id, theirs.id, "mem_nope"]}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "InvalidRequest"
    assert [
        (i["path"], theirs.id in i["message"] or "mem_nope" in i["message"]) for i in body["issues"]
    ] == [("forceFull[1]", True), ("forceFull[2]", True)]
    assert "Theirs" not in response.content.decode()


# The ceiling


def test_the_lowest_sections_are_cut_first_in_whole_lines(api, org):
    fail_outcome(api, "deploys")
    MemoryFactory(organisation=org, content="I deploy on Thursdays.", tier="core")
    for n in range(30):
        MemoryFactory(organisation=org, content=f"Kofi noted batch {n} of the stock take.")
    full = build(api, "Ask Kofi")
    assert {"guardrails", "core", "index", "triggered"} == set(sections(full))
    for ceiling in range(1, full["totalTokens"] + 5, 7):
        block = build(api, "Ask Kofi", maxTokens=ceiling)
        assert_accounted(block, ceiling)
        assert block["truncated"] == (block["entries"] != full["entries"])
        # What is kept is always a prefix of the full block: nothing lower survives a cut.
        assert block["entries"] == full["entries"][: len(block["entries"])]


def test_the_default_ceiling_is_max_total_tokens(api, org, settings):
    settings.MEMORY_MAX_TOTAL_TOKENS = 50
    for n in range(20):
        MemoryFactory(
            organisation=org, content=f"Core fact number {n} about the kitchen.", tier="core"
        )
    block = build(api, "")
    assert block["truncated"] and block["totalTokens"] <= 50
    assert_accounted(block, 50)


def test_a_ceiling_below_the_first_line_gives_an_empty_truncated_block(api, org):
    MemoryFactory(organisation=org, content="I deploy on Thursdays.", tier="core")
    assert build(api, "", maxTokens=1) == {
        "text": "",
        "entries": [],
        "totalTokens": 0,
        "truncated": True,
    }


@pytest.mark.parametrize("value", [0, -5, "100", 1.5, True, None, 10**12, [100]])
def test_a_max_tokens_that_is_not_a_sensible_count_is_refused(api, value):
    response = api.post(URL, {"userMessage": "hi", "maxTokens": value}, format="json")
    assert response.status_code == 400
    assert [issue["path"] for issue in response.json()["issues"]] == ["maxTokens"]


# Use


def test_memories_in_the_block_get_last_used_at_and_cut_ones_do_not(api, org):
    kept = MemoryFactory(organisation=org, content="I deploy on Thursdays.", tier="core")
    cut = MemoryFactory(organisation=org, content="I like espresso. " * 30, tier="core")
    Memory.objects.filter(pk=cut.pk).update(updated_at="2020-01-01T00:00:00Z")
    build(api, "", maxTokens=20)
    kept.refresh_from_db()
    cut.refresh_from_db()
    assert kept.last_used_at is not None and cut.last_used_at is None


# Bad input


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"userMessage": ""},
        {"userMessage": "x" * 1_000_000},
        {"userMessage": "Kofi " * 200_000, "transcript": "y " * 500_000},
        {"userMessage": "<|endoftext|> and emoji 🫠 and <script>"},
    ],
)
def test_empty_huge_and_odd_messages_get_a_block(api, org, body):
    MemoryFactory(organisation=org, content="Kofi is my sous chef.")
    response = api.post(URL, body, format="json")
    assert response.status_code == 200
    assert_accounted(response.json())


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"userMessage": 5}, "userMessage"),
        ({"userMessage": "nul \u0000 byte"}, "userMessage"),
        ({"userMessage": "a lone \ud83d surrogate"}, "userMessage"),
        ({"userMessage": "hi", "transcript": "a lone \udc00 surrogate"}, "transcript"),
        ({"userMessage": "x" * 1_000_001}, "userMessage"),
        ({"userMessage": "hi", "transcript": ["a"]}, "transcript"),
        ({"userMessage": "hi", "forceFull": "mem_x"}, "forceFull"),
        ({"userMessage": "hi", "forceFull": [5]}, "forceFull[0]"),
        ({"userMessage": "hi", "sessionId": 7}, "sessionId"),
        ({"userMessage": "hi", "maxTokenz": 5}, "maxTokenz"),
    ],
)
def test_a_malformed_body_is_refused_at_its_path(api, body, path):
    # As escapes, the way a client's JSON encoder sends a lone surrogate.
    response = api.post(URL, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert path in [issue["path"] for issue in response.json()["issues"]]


def test_a_body_that_is_not_an_object_is_refused(api):
    response = api.post(URL, ["userMessage"], format="json")
    assert response.status_code == 400 and response.json()["error"] == "InvalidRequest"


# Access


def test_context_needs_a_key(client_for):
    response = client_for(None).post(URL, {"userMessage": "hi"}, format="json")
    assert response.status_code == 401 and response.json()["error"] == "Unauthorized"


def test_context_needs_memories_read(org, client_for):
    key = ApiKeyFactory(organisation=org, scopes=[MEMORIES_WRITE])
    response = client_for(key).post(URL, {"userMessage": "hi"}, format="json")
    assert response.status_code == 403
    assert response.json()["requiredScope"] == "memories:read"


def test_a_long_message_is_read_as_far_as_a_turns_message_holds(api, org):
    memory = MemoryFactory(organisation=org, content="Kofi is my sous chef.")
    padding = "and so on " * 1_995  # 19,950 characters
    assert ids_in(build(api, f"{padding} ask Kofi"), "triggered") == [memory.id]
    assert ids_in(build(api, f"{padding} {padding} ask Kofi"), "triggered") == []


def test_a_phrase_with_a_common_word_still_triggers_by_its_rare_one(api, org, settings):
    from memory_service.context import services

    for n in range(services.MAX_HOLDERS + 1):
        MemoryFactory(organisation=org, content=f"Felix logged shift {n}.", indexed=True)
    held = MemoryFactory(organisation=org, content="Felix Dubois owns the reviews plan.")
    assert ids_in(build(api, "then ask Felix Dubois"), "triggered") == [held.id]
    assert ids_in(build(api, "then ask Felix"), "triggered") == []  # too common alone
