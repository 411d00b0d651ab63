"""Recall ranks by BM25 exactly: pruning answers what scoring every posting answers, and that is
what the formula computes from the memories' own words, ties broken by id."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict

import pytest

from memory_service.memories.lookup import memories_recall as recall
from memory_service.memories.models import Memory
from memory_service.recall import scoring, search, text
from memory_service.recall.block_encoding import pack
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


def unpruned(model, blocks, limit):
    # With a limit above the memory count there is never a threshold: every posting is scored.
    return scoring.rank(model, blocks, 10**9)[:limit]


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("limit", [1, 3, 8, 50])
def test_pruned_ranking_answers_what_scoring_every_posting_answers(
    org, corpus, query, limit, monkeypatch
):
    pruned = ranked(org, query, limit)
    with monkeypatch.context() as patch:
        patch.setattr(search, "rank", unpruned)
        full = ranked(org, query, limit)
    assert full and pruned == full
    mine = set(Memory.objects.filter(organisation=org).values_list("id", flat=True))
    assert {memory_id for memory_id, _ in full} <= mine


@pytest.mark.parametrize("query", QUERIES)
def test_scores_and_order_are_bm25_computed_from_the_memories_words(org, corpus, query):
    """The whole answer, ties broken by id, from nothing but the memories' text."""
    held = Memory.objects.filter(organisation=org)
    memories = {m.id: Counter(text.terms(m.recall_entry().text)) for m in held}
    total = sum(sum(counts.values()) for counts in memories.values())
    terms = set(query_words(query))
    df = {term: sum(1 for c in memories.values() if term in c) for term in terms}
    model = scoring.Bm25.for_query(
        documents=len(memories), total_length=total, df={t: n for t, n in df.items() if n}
    )

    def score(counts: Counter) -> int:
        length = sum(counts.values())
        return sum(model.impact(term, counts[term], length) for term in terms & set(counts))

    def textbook(counts: Counter) -> float:
        average, length = total / len(memories), sum(counts.values())
        found = 0.0
        for term in terms & set(counts):
            idf = math.log(1 + (len(memories) - df[term] + 0.5) / (df[term] + 0.5))
            tf = counts[term]
            found += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * length / average))
        return found

    expected = sorted(
        ((memory_id, score(counts)) for memory_id, counts in memories.items() if score(counts)),
        key=lambda item: (-item[1], item[0]),
    )
    hits = ranked(org, query, 50)
    assert hits == [(memory_id, s / scoring.SCALE) for memory_id, s in expected[:50]]
    for memory_id, s in hits:
        assert s == pytest.approx(textbook(memories[memory_id]), abs=1e-5 * len(terms))


def test_ties_break_by_id(org, corpus):
    hits = ranked(org, "user", 50)
    tied = [hits[0]] + [b for a, b in itertools.pairwise(hits) if a[1] == b[1]]
    assert len(tied) > 3
    assert all(a[0] < b[0] for a, b in itertools.pairwise(hits) if a[1] == b[1])


def test_recall_reads_past_the_shortest_memories_only_as_far_as_they_can_rank(org, corpus):
    """Long memories that hold a common term alone cannot rank: recall stops before them."""
    for n in range(40):
        MemoryFactory(
            organisation=org, content="user " + " ".join(f"filler{n}x{i}" for i in range(30))
        )
    lengths = []
    original = scoring._score_length

    def spy(model, term_blocks, length, threshold):
        lengths.append(length)
        return original(model, term_blocks, length, threshold)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scoring, "_score_length", spy)
        ranked(org, "user", 3)
    assert lengths and max(lengths) < 31


@pytest.mark.parametrize("seed", range(40))
def test_ranking_made_up_blocks_equals_sorting_every_memory(seed):
    """Few weights and lengths, and at times no length normalisation at all, so that scores tie
    within and across lengths, the threshold meets the upper bound, and the non-essential terms
    are looked up."""
    rng = random.Random(seed)
    query = rng.choice(["a", "ab", "abc", "abcd"])
    model = scoring.Bm25(
        weights={term: rng.choice([1e6, 2e6, 3e6]) for term in query},
        c1=0.3,
        c2=rng.choice([0.0, 0.1]),
    )
    held: dict[int, tuple[int, dict[str, int]]] = {}
    for number in rng.sample(range(10_000), 80):
        terms = rng.sample(query, rng.randint(1, len(query)))
        held[number] = (rng.randint(1, 6), {term: rng.choice([1, 1, 1, 2]) for term in terms})
    grouped: dict[tuple[str, int, int], list[int]] = defaultdict(list)
    for number, (length, terms) in held.items():
        for term, tf in terms.items():
            grouped[(term, length, tf)].append(number)
    blocks = [scoring.Block(*key, pack(numbers)) for key, numbers in grouped.items()]
    rng.shuffle(blocks)
    scores = {
        number: sum(model.impact(term, tf, length) for term, tf in terms.items())
        for number, (length, terms) in held.items()
    }
    expected = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    for limit in (1, 2, 5, 20, 100):
        assert scoring.rank(model, blocks, limit) == expected[:limit]
