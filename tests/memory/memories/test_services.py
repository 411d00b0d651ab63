"""The memory writes as the API and the admin both call them, held without a request: storing
merges a restatement and opens a tension on a changed value; moving, editing and forgetting keep
recall in step."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_service import errors
from memory_service.memories.models import ARCHIVE, CORE, Memory
from memory_service.memories.services.memories import (
    Statement,
    memories_store,
    memory_edit,
    memory_forget,
    memory_move,
)
from memory_service.recall.search import search
from memory_service.tensions.models import Tension
from memory_service.tensions.services import tension_resolve
from tests.memory.factories import MemoryFactory, OrganisationFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 2, 9, tzinfo=UTC)


def store(org, *contents: str, at: datetime = NOW):
    return memories_store(org=org, statements=[Statement(c) for c in contents], now=at)


def recalled(org, query: str) -> list[str]:
    return [match.memory_id for match in search(org=org, query=query, limit=8)]


def test_a_new_statement_is_stored_and_recalled():
    org = OrganisationFactory()
    outcome = store(org, "We deploy on Tuesdays.")
    assert outcome.counts() == {
        "stored": 1,
        "merged": 0,
        "rejected": 0,
        "tensions": 0,
        "promoted": 0,
    }
    assert recalled(org, "deploy") == [outcome.memories[0].id]


def test_a_restatement_merges_into_the_memory_held():
    org = OrganisationFactory()
    first = store(org, "We deploy on Tuesdays.").memories[0]
    again = store(org, "we deploy on tuesdays", at=NOW + timedelta(days=1))
    assert again.counts()["merged"] == 1
    assert again.memories[0].id == first.id
    assert Memory.objects.for_org(org).count() == 1


def test_a_changed_value_opens_a_tension_between_the_two():
    org = OrganisationFactory()
    older = store(org, "My favourite language is Rust.").memories[0]
    newer = store(org, "My favourite language is Go these days.", at=NOW + timedelta(days=1))
    assert newer.counts()["tensions"] == 1
    tension = Tension.objects.for_org(org).get()
    assert (tension.older_id, tension.newer_id) == (older.id, newer.memories[0].id)


def test_a_secret_is_refused_and_nothing_is_stored():
    org = OrganisationFactory()
    outcome = store(org, "the deploy key is ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8")
    assert outcome.counts()["rejected"] == 1
    assert not Memory.objects.for_org(org).exists()


def test_statements_of_another_organisation_are_neither_merged_nor_recalled():
    mine, theirs = OrganisationFactory(), OrganisationFactory()
    store(theirs, "We deploy on Tuesdays.")
    assert store(mine, "We deploy on Tuesdays.").counts()["stored"] == 1
    assert len(recalled(mine, "deploy")) == 1


def test_moving_a_memory_changes_its_tier_only_when_it_differs():
    memory = MemoryFactory(tier=CORE, updated_at=NOW)
    org = memory.organisation
    assert (
        memory_move(org=org, memory_id=memory.id, tier=CORE, now=NOW + timedelta(1)).updated_at
        == NOW
    )
    moved = memory_move(org=org, memory_id=memory.id, tier=ARCHIVE, now=NOW + timedelta(1))
    assert (moved.tier, moved.updated_at) == (ARCHIVE, NOW + timedelta(1))


def test_editing_a_memorys_domain_makes_recall_find_it_by_the_new_one():
    memory = MemoryFactory(content="Standup is at ten.", domain="")
    org = memory.organisation
    assert recalled(org, "payroll") == []
    memory_edit(
        org=org,
        memory_id=memory.id,
        kind="fact",
        tier=memory.tier,
        subject=memory.subject,
        domain="payroll",
        now=NOW,
    )
    assert recalled(org, "payroll") == [memory.id]


def test_a_forgotten_memory_is_gone_from_recall():
    memory = MemoryFactory(content="The spare key is under the blue pot.")
    org = memory.organisation
    memory_forget(org=org, memory_id=memory.id)
    assert recalled(org, "spare key") == []


def test_another_organisations_memory_is_not_found_by_any_write():
    memory = MemoryFactory()
    stranger = OrganisationFactory()
    with pytest.raises(errors.NotFound):
        memory_forget(org=stranger, memory_id=memory.id)
    with pytest.raises(errors.NotFound):
        memory_move(org=stranger, memory_id=memory.id, tier=ARCHIVE, now=NOW)
    assert Memory.objects.filter(pk=memory.id).exists()


def test_resolving_a_tension_archives_the_loser_and_stores_a_lesson():
    org = OrganisationFactory()
    older = store(org, "I drink my coffee black.").memories[0]
    newer = store(org, "I've switched to lattes with oat milk.", at=NOW + timedelta(1)).memories[0]
    tension = Tension.objects.for_org(org).get()
    tension_resolve(org=org, tension_id=tension.id, keep=newer.id, now=NOW + timedelta(2))
    assert Memory.objects.get(pk=older.id).tier == ARCHIVE
    assert Memory.objects.for_org(org).filter(kind="lesson").count() == 1
