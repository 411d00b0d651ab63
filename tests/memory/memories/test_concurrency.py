"""Several processes, like gunicorn workers, learning the same fact at the same moment."""

from __future__ import annotations

import multiprocessing

import pytest
from django.db import connections
from rest_framework.test import APIClient

from memory_service.memories.models import Memory
from memory_service.recall.models import IndexStats, PostingBlock
from memory_service.recall.numbers import unpack

pytestmark = pytest.mark.django_db(transaction=True)

TURNS = 20


def _learn(secret: str, message: str, start, results) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    start.wait(timeout=60)
    answer = client.post(
        "/api/v1/turns", {"userMessage": message, "assistantResponse": "Noted."}, format="json"
    )
    results.put((answer.status_code, answer.json()))
    connections.close_all()


def learn_at_once(secret: str, messages: list[str]) -> list[tuple[int, dict]]:
    """Post each message as a turn from its own process, all released together."""
    connections.close_all()
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(len(messages)), context.Queue()
    workers = [
        context.Process(target=_learn, args=(secret, message, start, results))
        for message in messages
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    return outcomes


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


def _store(secret: str, contents: list[str], start, results) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    start.wait(timeout=60)
    body = {"memories": [{"content": content} for content in contents]}
    answer = client.post("/api/v1/memories", body, format="json")
    results.put((answer.status_code, answer.json()))
    connections.close_all()


def test_racing_direct_stores_of_one_batch_in_different_orders_all_succeed(org, manager_key):
    contents = [f"Project {name} ships from the {name} repository." for name in "ABCDEFGH"]
    batches = [
        contents,
        contents[::-1],
        contents[3:] + contents[:3],
        contents[::2] + contents[1::2],
    ]
    connections.close_all()
    context = multiprocessing.get_context("fork")
    start, results = context.Barrier(len(batches)), context.Queue()
    workers = [
        context.Process(target=_store, args=(manager_key.secret, batch, start, results))
        for batch in batches
    ]
    for worker in workers:
        worker.start()
    outcomes = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
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
