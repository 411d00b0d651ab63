"""Tensions in the Django admin: both memories on the change page, and resolving actions."""

from __future__ import annotations

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User

from memory_service.memories.models import Memory
from memory_service.tensions.models import Tension
from tests.memory.tensions.factories import TensionFactory

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/tensions/tension/"


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def act(staff_client, action: str, tensions: list[Tension]):
    response = staff_client.post(
        CHANGELIST, {"action": action, "_selected_action": [t.pk for t in tensions]}, follow=True
    )
    assert response.status_code == 200
    return response


def test_the_change_page_shows_both_memories(staff_client, org):
    tension = TensionFactory(organisation=org)
    page = staff_client.get(f"{CHANGELIST}{quote(tension.pk)}/change/").content.decode()
    assert tension.older.content in page and tension.newer.content in page


def test_tensions_are_not_added_by_hand(staff_client):
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 403


@pytest.mark.parametrize(
    ("action", "tiers"),
    [
        ("resolve_keeping_newer", ("archive", "working")),
        ("resolve_keeping_older", ("working", "archive")),
        ("resolve_keeping_both", ("working", "working")),
    ],
)
def test_a_resolving_action_resolves_as_the_api_does(staff_client, org, action, tiers):
    chosen, other = TensionFactory(organisation=org), TensionFactory(organisation=org)
    response = act(staff_client, action, [chosen])
    assert "Resolved 1 tensions." in response.content.decode()
    chosen.refresh_from_db(), other.refresh_from_db()
    assert (chosen.status, other.status) == ("resolved", "open")
    chosen.older.refresh_from_db(), chosen.newer.refresh_from_db()
    assert (chosen.older.tier, chosen.newer.tier) == tiers
    expected = {"resolve_keeping_newer": chosen.newer_id, "resolve_keeping_older": chosen.older_id}
    assert chosen.kept == expected.get(action, "both")
    lesson = Memory.objects.get(pk=chosen.lesson_id)
    assert (lesson.kind, lesson.source) == ("lesson", "tension")


def test_an_action_skips_tensions_already_resolved_and_says_so(staff_client, org):
    resolved = TensionFactory(organisation=org)
    act(staff_client, "resolve_keeping_both", [resolved])
    fresh = TensionFactory(organisation=org)
    page = act(staff_client, "resolve_keeping_newer", [resolved, fresh]).content.decode()
    assert "Resolved 1 tensions." in page and "Skipped 1 tensions" in page
    resolved.refresh_from_db(), fresh.refresh_from_db()
    assert (resolved.kept, fresh.kept) == ("both", fresh.newer_id)
    assert Memory.objects.get(pk=resolved.newer_id).tier == "working"
