"""Memories in the Django admin: filters, search, promote and archive, add and delete."""

from __future__ import annotations

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User

from memory_service.memories.models import Memory, Turn
from memory_service.recall.models import Document, IndexStats, PostingBlock
from memory_service.tensions.models import Tension
from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/memories/memory/"


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


@pytest.mark.parametrize(
    ("query", "shown"),
    [
        ("tier__exact=core", "a"),
        ("kind__exact=lesson", "b"),
        ("domain=food", "c"),
        ("q=beagle", "d"),
    ],
)
def test_the_list_filters_by_tier_kind_and_domain_and_searches(staff_client, org, query, shown):
    made = {
        "a": MemoryFactory(organisation=org, tier="core", content="Core one."),
        "b": MemoryFactory(organisation=org, kind="lesson", content="Lesson two."),
        "c": MemoryFactory(organisation=org, domain="food", content="Food three."),
        "d": MemoryFactory(organisation=org, content="Biscuit is a beagle."),
    }
    page = staff_client.get(f"{CHANGELIST}?{query}").content.decode()
    for name, memory in made.items():
        assert (memory.content in page) == (name == shown)


@pytest.mark.parametrize(("action", "tier"), [("promote", "core"), ("archive", "archive")])
def test_the_promote_and_archive_actions_move_the_selected_memories(
    staff_client, org, api, action, tier
):
    chosen, other = MemoryFactory(organisation=org), MemoryFactory(organisation=org)
    response = staff_client.post(
        CHANGELIST, {"action": action, "_selected_action": [chosen.pk]}, follow=True
    )
    assert response.status_code == 200
    chosen.refresh_from_db(), other.refresh_from_db()
    assert (chosen.tier, other.tier) == (tier, "working")
    # The list's tier counts follow a bulk move too.
    counts = api.get("/api/v1/memories").json()["counts"]
    assert counts == {"core": 0, "archive": 0, "working": 1, tier: 1, "total": 2}


def test_adding_a_memory_indexes_it_for_recall(staff_client, org, api):
    response = staff_client.post(
        f"{CHANGELIST}add/",
        {"organisation": org.pk, "content": "Clara runs the Lisbon office.", "kind": "fact",
         "tier": "working", "subject": "", "domain": "work"},
    )  # fmt: skip
    assert response.status_code == 302
    memory = Memory.objects.for_org(org).get()
    assert memory.fingerprint and Document.objects.filter(memory_id=memory.id).exists()
    assert api.post("/api/v1/recall", {"query": "lisbon"}).json()["results"][0]["id"] == memory.id


def _admin_add(staff_client, org, content, **fields):
    return staff_client.post(
        f"{CHANGELIST}add/",
        {"organisation": org.pk, "content": content, "kind": "fact", "tier": "working",
         "subject": "", "domain": "", **fields},
    )  # fmt: skip


def test_adding_a_memory_that_contradicts_a_held_one_records_the_tension_as_the_api_does(
    staff_client, org, api
):
    api.post("/api/v1/memories", {"content": "I live in Lisbon."})
    response = _admin_add(staff_client, org, "I live in Seattle now.")
    assert response.status_code == 302
    older, newer = Memory.objects.for_org(org).order_by("created_at", "content")
    tension = Tension.objects.get(organisation=org)
    assert (tension.older_id, tension.newer_id) == (older.id, newer.id)
    assert "Seattle" in newer.content and newer.subject == older.subject


def test_adding_a_memory_already_held_merges_into_it_as_the_api_does(staff_client, org, api):
    held = api.post("/api/v1/memories", {"content": "I use zsh as my shell."}).json()
    response = _admin_add(staff_client, org, "I use zsh as my shell.")
    memory = Memory.objects.for_org(org).get()
    assert response.status_code == 302
    assert memory.id == held["memories"][0]["id"] and memory.times_seen == 2


@pytest.mark.parametrize(
    "content",
    [
        "The root password is Tr0ub4dor&3xq",
        "user svc_ops, password Kite-Fern-4410",
        "Kite-Fern-4410 is my password now",
        "the gate code is 4471",
    ],
)
def test_adding_a_secret_is_refused(staff_client, org, content):
    response = staff_client.post(
        f"{CHANGELIST}add/",
        {"organisation": org.pk, "content": content,
         "kind": "fact", "tier": "working", "subject": "", "domain": ""},
    )  # fmt: skip
    assert response.status_code == 200
    assert "secrets are never stored" in response.content.decode()
    assert not Memory.objects.exists()


def test_deleting_from_the_admin_takes_the_memory_out_of_the_index(staff_client, org):
    memories = [MemoryFactory(organisation=org) for _ in range(2)]
    response = staff_client.post(
        CHANGELIST,
        {"action": "delete_selected", "_selected_action": [m.pk for m in memories], "post": "yes"},
    )
    assert response.status_code == 302
    assert not Memory.objects.exists() and not Document.objects.exists()
    assert not PostingBlock.objects.exists()
    assert IndexStats.objects.get(organisation=org).documents == 0


def test_turns_are_shown_read_only(staff_client, api):
    api.post("/api/v1/turns", {"userMessage": "I use zsh as my shell.", "assistantResponse": "ok"})
    turn = Turn.objects.get()
    assert staff_client.get("/admin/memories/turn/").status_code == 200
    assert staff_client.get(f"/admin/memories/turn/{quote(turn.pk)}/change/").status_code == 200
    assert staff_client.get("/admin/memories/turn/add/").status_code == 403


def test_tensions_are_listed_with_their_status(staff_client, api):
    api.post("/api/v1/turns", {"userMessage": "I live in Lisbon.", "assistantResponse": "ok"})
    api.post("/api/v1/turns", {"userMessage": "I live in Seattle now.", "assistantResponse": "ok"})
    page = staff_client.get("/admin/tensions/tension/?status__exact=open").content.decode()
    assert "Seattle" in page and "Lisbon" in page


def test_changing_a_memory_moves_it_and_reindexes_its_new_domain(staff_client, org, api):
    memory = api.post("/api/v1/memories", {"content": "Clara runs the Lisbon office."}).json()
    change = f"{CHANGELIST}{quote(memory['memories'][0]['id'])}/change/"
    response = staff_client.post(
        change, {"kind": "fact", "tier": "core", "subject": "", "domain": "lighthouse"}
    )
    assert response.status_code == 302
    changed = Memory.objects.for_org(org).get()
    assert (changed.tier, changed.domain) == ("core", "lighthouse")
    assert (
        api.post("/api/v1/recall", {"query": "lighthouse"}).json()["results"][0]["id"] == changed.id
    )
