from __future__ import annotations

import pytest

from memory_service.recall.index import (
    index_memories,
    index_memory,
    reindex_memory,
    unindex_memory,
)
from memory_service.recall.models import IndexStats, Posting, TermStats
from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db


def postings(memory) -> dict[str, tuple[int, int]]:
    rows = Posting.objects.filter(memory=memory).values_list("term", "tf", "length")
    return {term: (tf, length) for term, tf, length in rows}


def totals(org) -> tuple[int, int]:
    stats = IndexStats.objects.get(organisation=org)
    return stats.documents, stats.total_length


def test_indexing_writes_one_posting_per_distinct_term_of_content_subject_and_domain(org):
    memory = MemoryFactory(
        organisation=org,
        content="The team deploys on Thursdays and never deploys on Fridays.",
        subject="deploy day",
        domain="coding",
    )
    assert postings(memory) == {
        "team": (1, 9),
        "deploy": (3, 9),
        "thursday": (1, 9),
        "never": (1, 9),
        "friday": (1, 9),
        "day": (1, 9),
        "code": (1, 9),
    }
    assert all(p.organisation_id == org.pk for p in Posting.objects.filter(memory=memory))


def test_indexing_counts_each_memory_and_its_length_in_the_organisation_totals(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    assert totals(org) == (2, 5)


def test_totals_are_kept_per_organisation(org, other_org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    MemoryFactory(organisation=other_org, content="Neovim with the Telescope plugin.")
    assert totals(org) == (1, 2)
    assert totals(other_org) == (1, 3)


def test_a_memory_of_stop_words_alone_gets_no_postings_and_is_not_counted(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="It is what it is.")
    assert postings(memory) == {}
    assert totals(org) == (1, 2)
    unindex_memory(memory)
    assert totals(org) == (1, 2)


def test_unindexing_removes_the_postings_and_takes_the_memory_out_of_the_totals(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    unindex_memory(memory)
    assert postings(memory) == {}
    assert totals(org) == (1, 2)


def test_unindexing_twice_takes_the_memory_out_once(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    unindex_memory(memory)
    unindex_memory(memory)
    assert totals(org) == (1, 2)


def test_reindexing_replaces_the_postings_and_the_length(org):
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    memory.content = "Emacs."
    memory.save(update_fields=["content"])
    reindex_memory(memory)
    assert postings(memory) == {"emac": (1, 1)}
    assert totals(org) == (1, 1)


def test_indexing_creates_the_totals_row_when_it_is_missing(org):
    memory = MemoryFactory(organisation=org, content="Kotlin at work.", indexed=False)
    assert not IndexStats.objects.filter(organisation=org).exists()
    index_memory(memory)
    assert totals(org) == (1, 2)


def test_a_long_term_is_stored_cut_to_the_column_width(org):
    memory = MemoryFactory(organisation=org, content="token " + "a" * 300)
    assert set(postings(memory)) == {"token", "a" * 64}


def term_stats(org) -> dict[str, tuple[int, int, int]]:
    rows = TermStats.objects.filter(organisation=org)
    return {t: (n, tf, length) for t, n, tf, length in rows.values_list(*TERM_FIELDS)}


TERM_FIELDS = ("term", "documents", "max_tf", "min_length")


def test_term_stats_count_memories_and_bound_tf_and_length(org):
    MemoryFactory(organisation=org, content="Deploy Kotlin.")
    MemoryFactory(organisation=org, content="Deploy, deploy, deploy the build.")
    assert term_stats(org) == {
        "deploy": (2, 3, 2),
        "kotlin": (1, 1, 2),
        "build": (1, 1, 4),
    }


def test_unindexing_takes_the_memory_out_of_its_terms_counts_and_keeps_the_bounds(org):
    MemoryFactory(organisation=org, content="Deploy Kotlin.")
    memory = MemoryFactory(organisation=org, content="Deploy, deploy, deploy the build.")
    unindex_memory(memory)
    assert term_stats(org) == {
        "deploy": (1, 3, 2),
        "kotlin": (1, 1, 2),
        "build": (0, 1, 4),
    }


def test_term_stats_are_kept_per_organisation(org, other_org):
    MemoryFactory(organisation=org, content="Deploy Kotlin.")
    MemoryFactory(organisation=other_org, content="Deploy.")
    assert term_stats(org)["deploy"] == (1, 1, 2)
    assert term_stats(other_org) == {"deploy": (1, 1, 1)}


def test_bulk_indexing_counts_like_one_by_one(org):
    contents = ["Deploy Kotlin.", "Deploy, deploy, deploy the build.", "Kotlin builds."]
    memories = [MemoryFactory(organisation=org, content=text, indexed=False) for text in contents]
    index_memories(memories)
    bulk = (term_stats(org), totals(org), postings(memories[1]))
    for memory in memories:
        unindex_memory(memory)
    for memory in memories:
        index_memory(memory)
    assert (term_stats(org), totals(org), postings(memories[1])) == bulk
