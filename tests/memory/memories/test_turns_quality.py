"""Replay the labelled turns through POST /v1/turns, each persona in its own organisation, in order.

Figures print with ``-s``; the development set holds the issue's targets and the held-out set the
floors measured when it was last scored (tests/data/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from rest_framework.test import APIClient

from memory_service.accounts.scopes import ALL_SCOPES
from memory_service.extraction.candidates import SECRET
from memory_service.memories.models import Memory, Turn
from tests.memory.factories import ApiKeyFactory
from tests.memory.labelled import BARS, SETS, by_persona, load_turns

pytestmark = pytest.mark.django_db

# Targets on the development set; the held-out set must not fall below what it measured.
CONTRADICTIONS = {name: bars["contradictions"] for name, bars in BARS.items()}
STRAY_TENSIONS = 0.05


@dataclass
class Replay:
    answers: list[tuple[dict, dict]] = field(default_factory=list)
    stored_texts: list[str] = field(default_factory=list)


def replay(turns: list[dict]) -> Replay:
    """Post each persona's turns in order against a fresh organisation of its own."""
    result = Replay()
    for persona_turns in by_persona(turns).values():
        key = ApiKeyFactory(scopes=list(ALL_SCOPES))
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.secret}")
        for turn in persona_turns:
            body = {
                "userMessage": turn["userMessage"],
                "assistantResponse": turn["assistantResponse"],
            }
            answer = client.post("/api/v1/turns", body, format="json")
            assert answer.status_code == 200, (turn["id"], answer.json())
            result.answers.append((turn, answer.json()))
    result.stored_texts = list(Memory.objects.values_list("content", flat=True))
    for user_message, response in Turn.objects.values_list("user_message", "assistant_response"):
        result.stored_texts += [user_message, response]
    return result


@pytest.fixture(params=list(SETS))
def replayed(request: pytest.FixtureRequest) -> tuple[str, Replay]:
    return request.param, replay(load_turns(request.param))


def test_no_labelled_secret_is_stored_in_a_memory_a_transcript_or_a_response(replayed):
    name, result = replayed
    leaks = []
    for turn, answer in result.answers:
        for item in turn["expected"]["rejected"]:
            if item["reason"] != SECRET:
                continue
            shown = [r["content"] for r in answer["rejected"]]
            # The labelled item is the whole clause; what must never come back is that clause
            # unredacted, in a memory, in the kept transcript or in the response.
            if any(item["content"] in text for text in result.stored_texts + shown):
                leaks.append(turn["id"])
    assert len(leaks) <= BARS[name]["credentials kept"], leaks


def test_every_labelled_lookup_stores_nothing_and_says_question(replayed):
    name, result = replayed
    lookups = [(turn, answer) for turn, answer in result.answers if turn["lookup"]]
    missed = [
        turn["id"]
        for turn, answer in lookups
        if answer["counts"]["stored"] or {r["reason"] for r in answer["rejected"]} != {"question"}
    ]
    print(f"\n{name}: lookups through the API {len(lookups) - len(missed)}/{len(lookups)}")
    assert len(missed) <= (1 - BARS[name]["lookups"]) * len(lookups), missed


def test_contradictions_open_tensions_and_nothing_else_does(replayed):
    name, result = replayed
    related = [(turn.get("relatesTo", {}).get("type"), answer) for turn, answer in result.answers]
    contradictions = [a for kind, a in related if kind == "contradiction"]
    restatements = [a for kind, a in related if kind == "restatement"]
    opened = sum(1 for a in contradictions if a["counts"]["tensions"])
    calm = sum(1 for a in restatements if not a["counts"]["tensions"])
    others = [a for kind, a in related if kind != "contradiction"]
    stray = sum(1 for a in others if a["counts"]["tensions"])
    print(
        f"\n{name}: contradictions with a tension {opened}/{len(contradictions)};"
        f" restatements without one {calm}/{len(restatements)};"
        f" tensions on other turns {stray}/{len(others)}"
    )
    assert opened >= CONTRADICTIONS[name] * len(contradictions)
    assert stray <= STRAY_TENSIONS * len(others)
