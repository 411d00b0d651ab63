"""Several processes, like gunicorn workers, learning the same fact at the same moment."""

from __future__ import annotations

import pytest

from memory_service.memories.models import Memory
from memory_service.recall.block_encoding import unpack
from memory_service.recall.models import IndexStats, PostingBlock
from tests.clients import race

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = 20


def post_at_once(secret: str, path: str, bodies: list[dict]) -> list[tuple[int, dict]]:
    """Post each body from its own process, all released together."""
    outcomes = race(secret, [("post", path, body) for body in bodies])
    return [(status, answer) for _, status, answer in outcomes]


def learn_at_once(secret: str, messages: list[str]) -> list[tuple[int, dict]]:
    """Post each message as a turn from its own process, all released together."""
    turns = [{"userMessage": message, "assistantResponse": "Noted."} for message in messages]
    return post_at_once(secret, "/api/v1/turns", turns)


def test_twenty_turns_restating_one_fact_at_once_leave_one_memory_seen_twenty_times(
    org, manager_key
):
    outcomes = learn_at_once(manager_key.secret, ["We deploy on Thursdays."] * TURNS)
    assert [status for status, _ in outcomes] == [200] * TURNS
    counts = [body["counts"] for _, body in outcomes]
    assert sum(c["stored"] for c in counts) == 1
    assert sum(c["merged"] for c in counts) == TURNS - 1
    assert sum(c["promoted"] for c in counts) == 1
    memory = Memory.objects.for_org(org).get()
    assert (memory.times_seen, memory.tier) == (TURNS, "core")
    assert IndexStats.objects.get(organisation=org).documents == 1


def test_racing_turns_with_overlapping_facts_all_succeed_and_count_exactly(org, manager_key):
    messages = [
        "I use zsh as my shell. We deploy on Thursdays.",
        "We deploy on Thursdays. I use zsh as my shell.",
    ] * 5
    outcomes = learn_at_once(manager_key.secret, messages)
    assert [status for status, _ in outcomes] == [200] * len(messages)
    seen = sorted(Memory.objects.for_org(org).values_list("times_seen", flat=True))
    assert seen == [len(messages), len(messages)]


def test_racing_direct_stores_of_one_batch_in_different_orders_all_succeed(org, manager_key):
    contents = [f"Project {name} ships from the {name} repository." for name in "ABCDEFGH"]
    batches = [
        contents,
        contents[::-1],
        contents[3:] + contents[:3],
        contents[::2] + contents[1::2],
    ]
    bodies = [{"memories": [{"content": content} for content in batch]} for batch in batches]
    outcomes = post_at_once(manager_key.secret, "/api/v1/memories", bodies)
    assert [status for status, _ in outcomes] == [200] * len(batches)
    for _, body in outcomes:
        assert len(body["memories"]) == len(contents)
    seen = Memory.objects.for_org(org).values_list("times_seen", flat=True)
    assert sorted(seen) == [len(batches)] * len(contents)


def test_racing_turns_with_distinct_facts_each_land_in_every_block_and_count(org, manager_key, api):
    """Appends to the same blocks, tally rows and totals from many processes lose nothing."""
    messages = [f"Project {n} ships on Tuesdays with Kotlin." for n in range(TURNS)]
    outcomes = learn_at_once(manager_key.secret, messages)
    assert [status for status, _ in outcomes] == [200] * TURNS
    assert sum(body["counts"]["stored"] for _, body in outcomes) == TURNS
    held = set(Memory.objects.for_org(org).values_list("id", flat=True))
    assert len(held) == TURNS
    for query in ("kotlin", "project tuesday"):
        hits = api.post("/api/v1/recall", {"query": query, "limit": 50}).json()["results"]
        assert {hit["id"] for hit in hits} == held
    held_by: dict[str, int] = {}
    for block in PostingBlock.objects.filter(organisation=org):
        held_by[block.term] = held_by.get(block.term, 0) + len(unpack(block.numbers))
    assert held_by["kotlin"] == held_by["tuesday"] == TURNS
    assert IndexStats.objects.get(organisation=org).documents == TURNS
    assert api.get("/api/v1/memories").json()["counts"]["working"] == TURNS
