"""Recall quality on the labelled corpus: hit rate at 8 as tests/data/README.md defines it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data"
MIN_HIT_RATE = 0.9


def read_jsonl(name: str) -> list[dict]:
    with (DATA / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture
def corpus(org) -> dict[str, str]:
    """Hold every memory of the corpus in ``org``; map each corpus id to its memory's id."""
    return {
        item["id"]: MemoryFactory(
            organisation=org,
            content=item["content"],
            kind=item["kind"],
            subject=item["subject"],
            domain=item["domain"],
        ).pk
        for item in read_jsonl("memories.jsonl")
    }


def test_hit_rate_at_8_on_the_labelled_queries(api, corpus):
    queries = read_jsonl("recall.jsonl")
    hits, misses, unanswered = 0, [], []
    for case in queries:
        response = api.post("/api/v1/recall", {"query": case["query"], "limit": 8})
        assert response.status_code == 200, response.content
        body = response.json()
        found = {hit["id"] for hit in body["results"]}
        if not case["expected"]:
            if body != {"results": [], "empty": True}:
                unanswered.append(case["id"])
        elif {corpus[expected] for expected in case["expected"]} <= found:
            hits += 1
        else:
            misses.append(case["id"])
    scored = sum(1 for case in queries if case["expected"])
    rate = hits / scored
    print(f"recall hit rate at 8: {rate:.3f} ({hits}/{scored}); missed: {misses}")
    assert rate >= MIN_HIT_RATE, misses
    assert unanswered == []
