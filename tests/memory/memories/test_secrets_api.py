"""The secrets suites through the API: no credential lands in a memory, a transcript, a response or
a log line, whether it comes as a turn or as a direct store."""

from __future__ import annotations

import logging

import pytest

from memory_service.memories.models import Memory, Turn
from tests.memory.labelled import BARS, SECRET_SUITES, load_secret_suite

pytestmark = pytest.mark.django_db


@pytest.fixture(params=list(SECRET_SUITES))
def suite(request: pytest.FixtureRequest) -> tuple[str, list[dict]]:
    return request.param, load_secret_suite(request.param)


def test_a_credential_sent_any_way_is_kept_nowhere(api, suite, caplog):
    name, items = suite
    leaked = []
    for item in (item for item in items if item["label"] == "credential"):
        caplog.clear()
        turns, memories = Turn.objects.count(), Memory.objects.count()
        with caplog.at_level(logging.DEBUG):
            turn = {"userMessage": item["text"], "assistantResponse": "Noted."}
            answers = [
                api.post("/api/v1/turns", turn, format="json"),
                api.post("/api/v1/memories", {"content": item["text"]}, format="json"),
            ]
        # A pasted file longer than a memory may be is refused whole (400); nothing of it is kept.
        assert {answer.status_code for answer in answers} <= {200, 400}
        texts = [text for answer in answers for text in _said(answer.json())]
        texts += [record.getMessage() for record in caplog.records]  # no line numbers
        texts += Memory.objects.order_by("created_at")[memories:].values_list("content", flat=True)
        for kept in Turn.objects.order_by("created_at")[turns:]:
            texts += [kept.user_message, kept.assistant_response]
        if any(value in text for value in item["values"] for text in texts):
            leaked.append(item["id"])
    assert len(leaked) <= BARS[name]["suite credentials leaked"], leaked


def test_a_statement_about_credentials_is_stored_directly(api, suite):
    name, items = suite
    adjacent = [item for item in items if item["label"] == "adjacent"]
    refused = []
    for start in range(0, len(adjacent), 100):  # a store takes at most 100 statements
        body = {"memories": [{"content": item["text"]} for item in adjacent[start : start + 100]]}
        answer = api.post("/api/v1/memories", body, format="json")
        assert answer.status_code == 200
        refused += [r["content"] for r in answer.json()["rejected"]]
    assert len(refused) <= BARS[name]["suite adjacent lost"] * len(adjacent), refused


@pytest.mark.parametrize(
    "message",
    [
        "name,password\n" + "kaya,Tundra!Moss31\n" * 1000,
        "recovery codes:\n" + "3f9a7-c21e4\n" * 1500,
        "pw: " * 4900,
        "password is Kite-Fern-4410 " * 700,
    ],
)
def test_a_message_at_the_length_limit_full_of_credentials_answers_and_keeps_none(api, message):
    answer = api.post(
        "/api/v1/turns", {"userMessage": message, "assistantResponse": "ok"}, format="json"
    )
    assert answer.status_code == 200
    kept = list(Memory.objects.values_list("content", flat=True))
    kept += list(Turn.objects.values_list("user_message", flat=True))
    for value in ("Tundra!Moss31", "3f9a7-c21e4", "Kite-Fern-4410"):
        assert value not in answer.content.decode()
        assert not [text for text in kept if value in text]


def _said(value: object, key: str = "") -> list[str]:
    """The strings of an answer, without its ids and timestamps: a short credential ("374", a
    CVV) would otherwise be found in a memory's id or in the milliseconds of its createdAt."""
    if isinstance(value, dict):
        return [text for name, item in value.items() for text in _said(item, name)]
    if isinstance(value, list):
        return [text for item in value for text in _said(item, key)]
    if isinstance(value, str) and not (key == "id" or key.endswith(("Id", "At"))):
        return [value]
    return []
