"""The pruned ranking must answer exactly what scoring every posting answers."""

from __future__ import annotations

import random

import pytest

from memory_service.memories.models import Memory
from memory_service.recall import scoring
from memory_service.recall.models import IndexStats, Posting, TermStats
from memory_service.recall.search import recall
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


def ranked(org, query: str, limit: int, *, full: bool, monkeypatch) -> list[tuple[str, float]]:
    monkeypatch.setattr(scoring, "FULL_SCAN_POSTINGS", 10**9 if full else 0)
    return [(hit.id, hit.score) for hit in recall(org=org, query=query, limit=limit)]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("limit", [1, 3, 8, 50])
def test_pruning_answers_what_a_full_scan_answers(org, corpus, query, limit, monkeypatch):
    full = ranked(org, query, limit, full=True, monkeypatch=monkeypatch)
    assert full
    assert ranked(org, query, limit, full=False, monkeypatch=monkeypatch) == full
    mine = set(Memory.objects.filter(organisation=org).values_list("id", flat=True))
    assert {memory_id for memory_id, _ in full} <= mine


def test_pruning_scores_fewer_memories_than_hold_the_term(org, corpus, monkeypatch):
    scored = []
    score = scoring._Ranking.score

    def counting(self, postings):
        scored.extend(postings.values_list("memory_id", flat=True))
        score(self, postings)

    monkeypatch.setattr(scoring._Ranking, "score", counting)
    ranked(org, "user", 3, full=False, monkeypatch=monkeypatch)
    assert 0 < len(set(scored)) < Posting.objects.filter(organisation=org, term="user").count()


def test_python_computes_each_share_exactly_as_the_database(org, corpus):
    held = TermStats.objects.filter(organisation=org)
    terms = [
        scoring.Term(*row) for row in held.values_list("term", "documents", "max_tf", "min_length")
    ]
    stats = IndexStats.objects.get(organisation=org)
    model = scoring.Bm25.for_query(
        documents=stats.documents, total_length=stats.total_length, terms=terms
    )
    rows = Posting.objects.filter(organisation=org).annotate(share=model.share())
    for term, tf, length, share in rows.values_list("term", "tf", "length", "share"):
        assert model.share_of(term, tf, length) == share
