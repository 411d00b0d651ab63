from __future__ import annotations

import random
import string

import factory
import pytest

from memory_service.ids import new_memory_id
from memory_service.memories.lookup import memories_recall as recall
from memory_service.recall.block_encoding import chunk_of, document_number, unpack
from memory_service.recall.index import index_entries, reindex, unindex
from memory_service.recall.models import Document, IndexStats, PostingBlock
from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db


def postings(memory) -> dict[str, tuple[int, int]]:
    """Return {term: (tf, length)} for every block that holds the memory's number."""
    document = Document.objects.filter(memory_id=memory.id).first()
    if document is None:
        return {}
    found = {}
    for block in PostingBlock.objects.filter(organisation_id=memory.organisation_id):
        if document.number in unpack(block.numbers):
            assert block.term not in found, "a memory holds a term with one tf"
            assert block.chunk == chunk_of(document.number)
            found[block.term] = (block.tf, block.length)
    assert found == {term: (tf, document.length) for term, tf in document.terms.items()}
    return found


def held_by(org) -> dict[str, int]:
    """Return how many memories hold each term, as the blocks say."""
    counts: dict[str, int] = {}
    for block in PostingBlock.objects.filter(organisation=org):
        counts[block.term] = counts.get(block.term, 0) + len(unpack(block.numbers))
    return counts


def totals(org) -> tuple[int, int]:
    stats = IndexStats.objects.get(organisation=org)
    return stats.documents, stats.total_length


def test_indexing_enters_the_memory_under_each_distinct_term_of_content_subject_and_domain(org):
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
    assert Document.objects.get(memory_id=memory.id).organisation_id == org.pk


def test_indexing_counts_each_memory_and_its_length_in_the_organisation_totals(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    assert totals(org) == (2, 5)


def test_totals_are_kept_per_organisation(org, other_org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    MemoryFactory(organisation=other_org, content="Neovim with the Telescope plugin.")
    assert totals(org) == (1, 2)
    assert totals(other_org) == (1, 3)


def test_a_memory_of_stop_words_alone_is_not_indexed_and_not_counted(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="It is what it is.")
    assert postings(memory) == {}
    assert totals(org) == (1, 2)
    unindex(org_id=memory.organisation_id, memory_id=memory.id)
    assert totals(org) == (1, 2)


def test_unindexing_removes_the_number_from_its_blocks_and_the_memory_from_the_totals(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    unindex(org_id=memory.organisation_id, memory_id=memory.id)
    assert postings(memory) == {}
    assert totals(org) == (1, 2)
    # Blocks left empty are deleted.
    assert held_by(org) == {"kotlin": 1, "work": 1}


def test_unindexing_twice_takes_the_memory_out_once(org):
    MemoryFactory(organisation=org, content="Kotlin at work.")
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    unindex(org_id=memory.organisation_id, memory_id=memory.id)
    unindex(org_id=memory.organisation_id, memory_id=memory.id)
    assert totals(org) == (1, 2)


def test_reindexing_indexes_the_memory_anew(org):
    memory = MemoryFactory(organisation=org, content="Neovim with the Telescope plugin.")
    memory.content = "Emacs."
    memory.save(update_fields=["content"])
    reindex(memory.recall_entry())
    assert postings(memory) == {"emac": (1, 1)}
    assert totals(org) == (1, 1)


def test_indexing_creates_the_totals_row_when_it_is_missing(org):
    memory = MemoryFactory(organisation=org, content="Kotlin at work.", indexed=False)
    assert not IndexStats.objects.filter(organisation=org).exists()
    index_entries([memory.recall_entry()])
    assert totals(org) == (1, 2)


def test_a_long_term_is_stored_cut_to_the_column_width(org):
    memory = MemoryFactory(organisation=org, content="token " + "a" * 300)
    assert set(postings(memory)) == {"token", "a" * 64}


def test_the_blocks_count_the_memories_holding_each_term(org):
    MemoryFactory(organisation=org, content="Deploy Kotlin.")
    MemoryFactory(organisation=org, content="Deploy, deploy, deploy the build.")
    assert held_by(org) == {"deploy": 2, "kotlin": 1, "build": 1}


def test_unindexing_a_memory_leaves_the_others_in_their_blocks(org):
    kept = MemoryFactory(organisation=org, content="Deploy Kotlin.")
    # The same length and tf as the kept memory: both numbers share blocks.
    gone = MemoryFactory(organisation=org, content="Deploy Gradle.")
    unindex(org_id=gone.organisation_id, memory_id=gone.id)
    assert held_by(org) == {"deploy": 1, "kotlin": 1}
    assert postings(kept) == {"deploy": (1, 2), "kotlin": (1, 2)}


def test_the_blocks_are_kept_per_organisation(org, other_org):
    MemoryFactory(organisation=org, content="Deploy Kotlin.")
    MemoryFactory(organisation=other_org, content="Deploy.")
    assert held_by(org) == {"deploy": 1, "kotlin": 1}
    assert held_by(other_org) == {"deploy": 1}


def test_bulk_indexing_counts_like_one_by_one(org):
    contents = ["Deploy Kotlin.", "Deploy, deploy, deploy the build.", "Kotlin builds."]
    memories = [MemoryFactory(organisation=org, content=text, indexed=False) for text in contents]
    index_entries(m.recall_entry() for m in memories)
    bulk = (held_by(org), totals(org), [postings(memory) for memory in memories])
    for memory in memories:
        unindex(org_id=memory.organisation_id, memory_id=memory.id)
    assert held_by(org) == {} and totals(org) == (0, 0)
    for memory in memories:
        index_entries([memory.recall_entry()])
    assert (held_by(org), totals(org), [postings(memory) for memory in memories]) == bulk


def test_numbers_order_like_the_ids():
    rng = random.Random(5)
    alphabet = string.digits + string.ascii_letters
    generated = [new_memory_id() for _ in range(500)]
    odd = ["mem_", "mem_-", "mem_~~", "other", "mem_a_b"] + [
        "mem_" + "".join(rng.choices(alphabet + "_-~", k=rng.randint(0, 24))) for _ in range(500)
    ]
    for ids in (generated, generated + odd):
        ordered = sorted(ids)
        numbers = [document_number(memory_id) for memory_id in ordered]
        assert numbers == sorted(numbers)
        assert all(0 <= number < 2**63 for number in numbers)
    assert len({document_number(memory_id) for memory_id in generated}) == len(generated)


def test_memories_whose_ids_share_a_number_are_each_given_their_own(org, other_org):
    shared = "mem_" + "K" * 10
    first = MemoryFactory(organisation=org, id=shared + "b" * 10, content="Kotlin at work.")
    again = MemoryFactory(organisation=org, id=shared + "a" * 10, content="Kotlin at home.")
    both = MemoryFactory.build_batch(
        2, organisation=org, content=factory.Iterator(["Kotlin builds.", "Kotlin tests."])
    )
    for memory, tail in zip(both, ["c", "d"], strict=True):
        memory.id = shared + tail * 10
        memory.save()
    index_entries(m.recall_entry() for m in both)  # in one batch
    elsewhere = MemoryFactory(organisation=other_org, id=shared + "e" * 10, content="Kotlin.")
    mine = [first, again, *both]
    numbers = [Document.objects.get(memory_id=memory.id).number for memory in mine]
    assert numbers[0] == document_number(first.id) and len(set(numbers)) == 4
    assert Document.objects.get(memory_id=elsewhere.id).number == document_number(first.id)
    assert all(postings(memory)["kotlin"] == (1, 2) for memory in mine)
    hits = recall(org=org, query="kotlin", limit=8)
    assert sorted(hit.id for hit in hits) == sorted(memory.id for memory in mine)
