"""Upgrading a deployment: the migration to posting blocks indexes the memories already held."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memory_service.memories.lookup import memories_recall as recall
from memory_service.recall.models import Document, IndexStats
from tests.memory.factories import MemoryFactory, OrganisationFactory

BEFORE = [("recall", "0001_initial")]
AFTER = [("recall", "0002_packed_posting_blocks")]


def migrate(targets: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_the_upgrade_indexes_every_memory_held_before_it():
    migrate(BEFORE)
    try:
        org, other = OrganisationFactory(), OrganisationFactory()
        contents = ["Kotlin at work.", "Neovim with Kotlin plugins.", "It is what it is."]
        mine = [MemoryFactory(organisation=org, content=c, indexed=False) for c in contents]
        theirs = MemoryFactory(organisation=other, content="Kotlin.", indexed=False)
    finally:
        migrate(AFTER)
    hits = recall(org=org, query="kotlin", limit=8)
    assert [hit.id for hit in hits] == [mine[0].id, mine[1].id]
    assert [hit.id for hit in recall(org=other, query="kotlin", limit=8)] == [theirs.id]
    # The memory of stop words alone is not indexed, as the services leave it.
    assert Document.objects.filter(organisation=org).count() == 2
    stats = IndexStats.objects.get(organisation=org)
    assert (stats.documents, stats.total_length) == (2, 5)
