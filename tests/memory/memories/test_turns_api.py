"""POST /v1/turns: what the rules keep, reject, merge, promote and contradict."""

from __future__ import annotations

import pytest

from memory_service.memories.models import CORE, Memory, Turn
from memory_service.tensions.models import Tension
from tests.memory.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/turns"


def turn(api, message: str, response: str = "Noted.", **extra) -> dict:
    answer = api.post(URL, {"userMessage": message, "assistantResponse": response, **extra})
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_a_durable_statement_is_stored_in_the_working_tier(api, org):
    body = turn(api, "I prefer tabs for indentation.", sessionId="s-1")
    assert body["counts"] == {"stored": 1, "merged": 0, "rejected": 0, "tensions": 0, "promoted": 0}
    assert body["rejected"] == []
    [memory] = body["memories"]
    assert memory["content"] == "I prefer tabs for indentation."
    assert (memory["tier"], memory["kind"], memory["source"]) == ("working", "preference", "turn")
    assert (memory["sessionId"], memory["timesSeen"]) == ("s-1", 1)
    assert Memory.objects.for_org(org).get(pk=memory["id"]).subject == "indentation"


def test_small_talk_is_rejected_with_its_reason(api, org):
    body = turn(api, "Hi there! I use zsh as my shell.")
    assert body["counts"]["stored"] == 1
    assert body["rejected"] == [{"content": "Hi there!", "reason": "small talk"}]
    assert body["counts"]["rejected"] == 1


def test_a_question_makes_the_whole_turn_a_lookup(api, org):
    body = turn(api, "I prefer tabs, but what does PEP 8 say?", "Four spaces.")
    assert body["counts"] == {"stored": 0, "merged": 0, "rejected": 1, "tensions": 0, "promoted": 0}
    assert [item["reason"] for item in body["rejected"]] == ["question"]
    assert not Memory.objects.for_org(org).exists()
    assert Turn.objects.for_org(org).get().lookup is True


def test_a_restatement_is_merged_and_its_times_seen_grows(api, org):
    first = turn(api, "I use zsh as my shell.")["memories"][0]
    body = turn(api, "i use zsh as my shell")
    assert body["counts"]["merged"] == 1 and body["counts"]["stored"] == 0
    assert body["memories"][0]["id"] == first["id"]
    assert body["memories"][0]["timesSeen"] == 2
    assert Memory.objects.for_org(org).count() == 1


def test_a_memory_stated_in_three_separate_turns_is_promoted_to_core(api, org):
    counts = [turn(api, "My shell is zsh.")["counts"] for _ in range(3)]
    assert [c["promoted"] for c in counts] == [0, 0, 1]
    memory = Memory.objects.for_org(org).get()
    assert (memory.tier, memory.times_seen) == (CORE, 3)


def test_a_statement_repeated_within_one_turn_counts_once_towards_promotion(api, org):
    turn(api, "My shell is zsh. My shell is zsh.")
    turn(api, "My shell is zsh.")
    memory = Memory.objects.for_org(org).get()
    assert memory.tier == "working" and memory.times_seen == 3


def test_a_contradiction_on_the_same_subject_is_stored_and_opens_a_tension(api, org):
    older = turn(api, "I live in Lisbon.")["memories"][0]
    body = turn(api, "I live in Seattle now.")
    assert body["counts"]["stored"] == 1 and body["counts"]["tensions"] == 1
    newer = body["memories"][0]
    tension = Tension.objects.for_org(org).get()
    assert (tension.older_id, tension.newer_id, tension.status) == (
        older["id"],
        newer["id"],
        "open",
    )
    assert "Seattle" in tension.description and "Lisbon" in tension.description


def test_the_turn_is_kept_as_its_sessions_transcript(api, org):
    turn(api, "I use zsh as my shell.", "Noted, zsh.", sessionId="chat-7")
    kept = Turn.objects.for_org(org).get()
    assert (kept.session_id, kept.user_message, kept.assistant_response) == (
        "chat-7",
        "I use zsh as my shell.",
        "Noted, zsh.",
    )
    assert kept.counts["stored"] == 1


SECRETS = [
    "My GitHub token is ghp_4f9KqL2mZx8RtY7vB1nC3dE5gH6jK0pQwS2u.",
    "The staging password is Tr0ub4dor&3xq.",
    "Use this key: sk-proj-9aZ8bY7cX6dW5eV4fU3gT2hS1iR0jQ.",
]


@pytest.mark.parametrize("sentence", SECRETS)
def test_a_secret_is_rejected_and_never_stored_even_in_the_transcript(api, org, sentence):
    body = turn(api, f"I prefer ed25519 SSH keys. {sentence}", f"Got it: {sentence}")
    assert body["counts"]["stored"] == 1
    assert [item["reason"] for item in body["rejected"]] == ["secret"]
    secret = sentence.split()[-1].rstrip(".")
    assert secret not in body["rejected"][0]["content"]
    assert not Memory.objects.filter(content__contains=secret).exists()
    kept = Turn.objects.for_org(org).get()
    assert secret not in kept.user_message and secret not in kept.assistant_response


def test_a_turn_of_another_organisation_never_merges_into_this_ones_memories(api, client_for, org):
    turn(api, "I use zsh as my shell.")
    stranger = client_for(ApiKeyFactory())
    body = turn(stranger, "I use zsh as my shell.")
    assert body["counts"]["stored"] == 1
    assert Memory.objects.for_org(org).get().times_seen == 1


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"assistantResponse": "ok"}, "userMessage"),
        ({"userMessage": "", "assistantResponse": "ok"}, "userMessage"),
        ({"userMessage": 5, "assistantResponse": "ok"}, "userMessage"),
        ({"userMessage": "I use zsh."}, "assistantResponse"),
        ({"userMessage": "I use zsh.", "assistantResponse": "", "sessionId": 3}, "sessionId"),
        ({"userMessage": "I use zsh.", "assistantResponse": "", "mood": "calm"}, "mood"),
    ],
)
def test_a_bad_body_is_invalid_request_naming_the_field(api, body, path):
    answer = api.post(URL, body)
    assert answer.status_code == 400
    assert answer.json()["error"] == "InvalidRequest"
    assert path in [issue["path"] for issue in answer.json()["issues"]]


def test_learning_needs_the_memories_write_scope(client_for, org):
    reader = client_for(ApiKeyFactory(organisation=org, scopes=["memories:read"]))
    answer = reader.post(URL, {"userMessage": "I use zsh.", "assistantResponse": "ok"})
    assert answer.status_code == 403
    assert answer.json()["requiredScope"] == "memories:write"


def test_learning_needs_a_key(client_for):
    answer = client_for(None).post(URL, {"userMessage": "I use zsh.", "assistantResponse": "ok"})
    assert answer.status_code == 401 and answer.json()["error"] == "Unauthorized"


def test_statements_sharing_only_a_framing_verb_are_not_merged(api, org):
    turn(api, "I use VS Code for everything.")
    body = turn(api, "I use Neovim for everything now.")
    assert body["counts"]["merged"] == 0 and body["counts"]["tensions"] == 1


def test_a_restatement_adding_nothing_new_is_merged(api, org):
    held = turn(api, "I have a dog named Biscuit.")["memories"][0]
    body = turn(api, "Biscuit is my dog.")
    assert body["counts"]["merged"] == 1
    assert body["memories"][0]["id"] == held["id"]


def test_a_statement_adding_to_a_held_one_is_kept_on_its_own_without_a_tension(api, org):
    turn(api, "I have a dog named Biscuit.")
    body = turn(api, "Biscuit is my dog, a beagle.")
    assert (body["counts"]["stored"], body["counts"]["tensions"]) == (1, 0)
    assert Memory.objects.for_org(org).count() == 2


def test_a_similar_statement_with_another_value_is_never_folded_away(api, org):
    turn(api, "Clara prefers tacos for lunch on Mondays.")
    body = turn(api, "Clara prefers pizza for lunch on Mondays.")
    assert body["counts"]["merged"] == 0
    assert Memory.objects.for_org(org).count() == 2


def test_a_correction_without_a_subject_contradicts_what_it_corrects(api, org):
    held = turn(api, "My locker is number 12 in the east wing.")["memories"][0]
    body = turn(api, "No, it's number 31 now, they moved me to the west wing.")
    assert body["counts"]["tensions"] == 1
    tension = Tension.objects.for_org(org).get()
    assert tension.older_id == held["id"]
