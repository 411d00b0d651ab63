"""Recall ranks by BM25 exactly: the pruned plans answer what scoring every posting answers,
and that is what the textbook formula computes from the memories' own words."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from django.db import connection

from memory_service.memories.models import Memory
from memory_service.recall import scoring
from memory_service.recall.index import document_terms
from memory_service.recall.models import IndexStats, Posting, TermStats
from memory_service.recall.search import recall
from memory_service.recall.text import query_words
from tests.memory.factories import MemoryFactory

pytestmark = pytest.mark.django_db

# Few words and few lengths, so that many memories tie and lists share long runs of one length.
COMMON = ["user", "team", "deploy", "work"]
RARE = ["kotlin", "neovim", "seattle", "thursday", "gradle", "ramen"]
QUERIES = [
    "user",
    "user team",
    "team deploy work",
    "kotlin",
    "kotlin user",
    "deploy deploy thursday",
    "neovim seattle team user",
    "gradle ramen kotlin neovim seattle thursday",
    "user team deploy work kotlin",
]


@pytest.fixture
def corpus(org, other_org) -> None:
    """Give ``org`` memories that tie a lot, and ``other_org`` the same ones, to tie across."""
    rng = random.Random(7)
    for n in range(160):
        words = rng.choices(COMMON, k=rng.randint(1, 4)) + rng.sample(RARE, k=rng.randint(0, 2))
        if n % 23 == 0:
            words += ["deploy"] * 5  # a tf beyond the exact runs
        for owner in (org, other_org):
            MemoryFactory(organisation=owner, content=" ".join(words) + f" n{n}")


def ranked(org, query: str, limit: int) -> list[tuple[str, float]]:
    return [(hit.id, hit.score) for hit in recall(org=org, query=query, limit=limit)]


def full_scan(org, query: str, limit: int, monkeypatch) -> list[tuple[str, float]]:
    with monkeypatch.context() as patch:
        patch.setattr(scoring, "FULL_SCAN_POSTINGS", 10**9)
        return ranked(org, query, limit)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("limit", [1, 3, 8, 50])
@pytest.mark.parametrize("lookup_cost", [0, 10**9], ids=["split", "summed"])
def test_pruned_plans_answer_what_a_full_scan_answers(
    org, corpus, query, limit, lookup_cost, monkeypatch
):
    full = full_scan(org, query, limit, monkeypatch)
    assert full
    # Small heads and no full scan, so that the floor, the bounds and the lookups all take part.
    monkeypatch.setattr(scoring, "FULL_SCAN_POSTINGS", 0)
    monkeypatch.setattr(scoring, "HEAD", 1)
    monkeypatch.setattr(scoring, "LOOKUP_COST", lookup_cost)
    assert ranked(org, query, limit) == full
    mine = set(Memory.objects.filter(organisation=org).values_list("id", flat=True))
    assert {memory_id for memory_id, _ in full} <= mine


def test_scores_and_order_are_bm25_computed_from_the_memories_words(org, corpus):
    memories = {m.id: Counter(document_terms(m)) for m in Memory.objects.filter(organisation=org)}
    average = sum(sum(c.values()) for c in memories.values()) / len(memories)
    for query in QUERIES:
        terms = set(query_words(query))

        def bm25(counts: Counter, terms: set[str] = terms) -> float:
            total, length = 0.0, sum(counts.values())
            for term in terms & set(counts):
                df = sum(1 for c in memories.values() if term in c)
                idf = math.log(1 + (len(memories) - df + 0.5) / (df + 0.5))
                tf = counts[term]
                total += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
            return total

        hits = ranked(org, query, 8)
        for memory_id, score in hits:
            assert score == pytest.approx(bm25(memories[memory_id]), abs=1e-5 * len(terms))
        last = hits[-1][1]
        outside = set(memories) - {memory_id for memory_id, _ in hits}
        assert all(bm25(memories[m]) <= last + 1e-5 * len(terms) for m in outside)


def test_the_bounded_plan_reads_fewer_postings_than_the_term_holds(org, corpus):
    model = _model(org, "user")
    floor = scoring._floor(org.pk, model, 3)
    plan = scoring._plan(model, floor)
    (term, _, longest), *_ = plan.arms
    assert term == "user" and longest is not None
    read = Posting.objects.filter(organisation=org, term="user", length__lte=longest).count()
    assert 0 < read < Posting.objects.filter(organisation=org, term="user").count()


def test_python_computes_each_share_exactly_as_the_database(org, corpus):
    terms = list(TermStats.objects.filter(organisation=org).values_list("term", flat=True))
    model = _model(org, " ".join(terms))
    for term in terms:
        share, params = model.share_sql([term])
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT tf, length, {share} FROM recall_posting"  # noqa: S608
                " WHERE organisation_id = %s AND term = %s",
                [*params, org.pk, term],
            )
            for tf, length, value in cursor.fetchall():
                assert model.share_of(term, tf, length) == value


def _model(org, query: str) -> scoring.Bm25:
    held = TermStats.objects.filter(organisation=org, term__in=list(query_words(query)))
    terms = [
        scoring.Term(*row) for row in held.values_list("term", "documents", "max_tf", "min_length")
    ]
    stats = IndexStats.objects.get(organisation=org)
    return scoring.Bm25.for_query(
        documents=stats.documents, total_length=stats.total_length, terms=terms
    )
