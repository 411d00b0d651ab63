"""A batch of statements is filed set-based, with the results of filing them one at a time."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from memory_service.memories.models import Memory
from memory_service.tensions.models import Tension
from tests.memory.factories import ApiKeyFactory, MemoryFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/memories"

# Statements on a subject each, none reading as a correction (which reads the index first).
TOOLS = ["Vim", "Emacs", "Helix", "Zed", "Kakoune", "Nano", "Sublime", "Atom", "Micro", "Joe"]
PLACES = ["Lisbon", "Oslo", "Porto", "Quito", "Lima", "Riga", "Turin"]


def fresh(count: int, seed: str) -> list[dict]:
    return [
        {"content": f"The {seed} team {n} edits in {TOOLS[n % 10]} in {PLACES[n % 7]}."}
        for n in range(count)
    ]


def queries_to_store(api, memories: list[dict]) -> int:
    with CaptureQueriesContext(connection) as queries:
        answer = api.post(URL, {"memories": memories}, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["counts"]["stored"] == len(memories)
    return len(queries.captured_queries)


def test_a_hundred_statements_cost_about_the_statements_of_ten(api, org):
    MemoryFactory(organisation=org, content="The orange team edits in Vim.", subject="team")
    queries_to_store(api, fresh(1, "green"))  # the key is looked up and marked used once
    ten = queries_to_store(api, fresh(10, "red"))
    hundred = queries_to_store(api, fresh(100, "blue"))
    # Not one more per statement: on SQLite the index's upsert takes 500 blocks at a time.
    assert hundred <= ten + 2
    assert ten <= 16


CASES = [
    # a statement, its restatement, and a change of mind on the same subject
    ["My editor is Vim.", "my editor is vim", "My editor is Emacs now."],
    # a restatement of what is held, then a contradiction of it, then its restatement again
    ["We deploy on Thursdays.", "Actually we deploy on Fridays now.", "we deploy on fridays now"],
    # additions to a held subject are memories of their own
    ["Biscuit is my dog, a beagle.", "Biscuit is also my running partner."],
]
HELD = ["My editor is Nano.", "We deploy on Thursdays.", "Biscuit is my dog."]


@pytest.mark.parametrize("contents", CASES)
def test_a_batch_files_like_its_statements_sent_one_at_a_time(client_for, contents):
    one_by_one, batched = ApiKeyFactory(), ApiKeyFactory()
    for key in (one_by_one, batched):
        client_for(key).post(URL, {"memories": [{"content": text} for text in HELD]}, format="json")
    counts = [
        client_for(one_by_one).post(URL, {"content": text}, format="json").json()["counts"]
        for text in contents
    ]
    body = (
        client_for(batched)
        .post(URL, {"memories": [{"content": text} for text in contents]}, format="json")
        .json()
    )
    assert body["counts"] == {name: sum(c[name] for c in counts) for name in counts[0]}

    def held(key) -> list[tuple[str, str, int]]:
        memories = Memory.objects.for_org(key.organisation)
        return sorted(memories.values_list("content", "tier", "times_seen"))

    def tensions(key) -> list[tuple[str, str]]:
        found = Tension.objects.filter(organisation=key.organisation)
        return sorted(found.values_list("older__content", "newer__content"))

    assert held(batched) == held(one_by_one)
    assert tensions(batched) == tensions(one_by_one)


def test_restatements_in_one_batch_count_on_the_held_row_and_promote_on_the_third_turn(api, org):
    memory = MemoryFactory(organisation=org, content="We ship on Mondays.", turns_seen=2)
    body = api.post(
        URL,
        {"memories": [{"content": "we ship on mondays"}, {"content": "We ship on Mondays!"}]},
        format="json",
    ).json()
    assert body["counts"]["merged"] == 2
    memory.refresh_from_db()
    assert memory.times_seen == 3
    [answered] = body["memories"]
    assert (answered["id"], answered["timesSeen"]) == (memory.pk, 3)


def test_a_batch_moving_a_held_memory_to_the_archive_files_the_rest_against_what_remains(api, org):
    api.post(URL, {"content": "My editor is Nano."}, format="json")
    body = api.post(
        URL,
        {
            "memories": [
                {"content": "My editor is Nano.", "tier": "archive"},
                {"content": "My editor is Helix."},
            ]
        },
        format="json",
    ).json()
    # Nothing outside the archive is held on the subject any more: no tension.
    assert body["counts"]["tensions"] == 0
    assert sorted(Memory.objects.for_org(org).values_list("tier", flat=True)) == [
        "archive",
        "working",
    ]


def test_a_statement_is_compared_with_the_newest_twenty_held_on_its_subject(api, org):
    start = timezone.now() - timedelta(days=30)
    for day, city in enumerate(["Quito", *(f"Town{n}" for n in range(24))]):
        MemoryFactory(
            organisation=org,
            content=f"I live in {city} with my family.",
            subject="city",
            updated_at=start + timedelta(days=day),
        )
    statements = [{"content": "I live in Quito."}, {"content": "We live in Town20"}]
    body = api.post(URL, {"memories": statements}, format="json").json()
    # Quito is the oldest of 25 on the subject, out of reach: a memory of its own. Town20 is
    # among the newest twenty: a restatement of it.
    assert body["counts"] == {"stored": 1, "merged": 1, "rejected": 0, "tensions": 0, "promoted": 0}
    assert [m["content"] for m in body["memories"]] == [
        "I live in Quito.",
        "I live in Town20 with my family.",
    ]
