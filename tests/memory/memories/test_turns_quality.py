"""Replay the labelled turns through POST /v1/turns, in order, against one organisation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memory_service.extraction.candidates import SECRET
from memory_service.extraction.secrets import contains_secret
from memory_service.memories.models import Memory, Turn

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "data"


def replay(api, name: str) -> list[tuple[dict, dict]]:
    """Post every turn of ``name`` in file order; return (turn, result) pairs."""
    answered = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        turn = json.loads(line)
        body = {"userMessage": turn["userMessage"], "assistantResponse": turn["assistantResponse"]}
        answer = api.post("/api/v1/turns", body)
        assert answer.status_code == 200, (turn["id"], answer.json())
        answered.append((turn, answer.json()))
    return answered


@pytest.fixture(params=["turns.jsonl", "holdout/turns.jsonl"])
def replayed(api, request: pytest.FixtureRequest) -> list[tuple[dict, dict]]:
    return replay(api, request.param)


def test_no_secret_of_the_labelled_turns_is_ever_stored(replayed, org):
    secrets = [
        item["content"]
        for turn, _ in replayed
        for item in turn["expected"]["rejected"]
        if item["reason"] == SECRET
    ]
    assert secrets
    texts = [m.content for m in Memory.objects.all()]
    for kept in Turn.objects.all():
        texts += [kept.user_message, kept.assistant_response]
    assert not [text for text in texts if contains_secret(text)]
    for _, result in replayed:
        assert not [item for item in result["rejected"] if contains_secret(item["content"])]


def test_every_turn_with_a_question_is_a_lookup(replayed):
    lookups = [(turn, result) for turn, result in replayed if "?" in turn["userMessage"]]
    assert lookups
    for _, result in lookups:
        counts = result["counts"]
        assert (counts["stored"], counts["merged"], counts["promoted"]) == (0, 0, 0)
        assert {item["reason"] for item in result["rejected"]} == {"question"}


def test_every_rejection_has_a_reason_from_the_vocabulary(replayed):
    reasons = {item["reason"] for _, result in replayed for item in result["rejected"]}
    vocabulary = {"small talk", "too vague", "too long", "question", "hypothetical", "transient"}
    assert reasons <= vocabulary | {SECRET}


def test_contradictions_open_tensions_and_restatements_merge(replayed):
    related = [(turn.get("relatesTo", {}).get("type"), result) for turn, result in replayed]
    contradictions = [r for kind, r in related if kind == "contradiction"]
    restatements = [r for kind, r in related if kind == "restatement"]
    tensions = sum(1 for r in contradictions if r["counts"]["tensions"])
    merges = sum(1 for r in restatements if r["counts"]["merged"])
    # A restatement that adds something is kept as its own memory; only a tension is wrong.
    calm = sum(1 for r in restatements if not r["counts"]["tensions"])
    stray = sum(1 for kind, r in related if kind != "contradiction" and r["counts"]["tensions"])
    print(
        f"\ncontradictions with a tension {tensions}/{len(contradictions)};"
        f" restatements merged {merges}/{len(restatements)},"
        f" without a tension {calm}/{len(restatements)};"
        f" tensions on other turns {stray}/{len(related) - len(contradictions)}"
    )
    assert tensions >= 0.8 * len(contradictions)
    assert calm >= 0.8 * len(restatements)
    assert stray <= 0.05 * len(related)
