"""BM25 ranking over posting blocks, exact, reading each block once and scoring in Python.

A posting's share of a score is ``floor(weight x tf / (tf + c1 + c2 x length) + 0.5)`` in
millionths, an integer; a memory's score is the sum of its shares. Integer sums do not depend on
the order they are added in, so equal memories tie exactly, and ties break by memory number,
which orders like the memory id.

Recall works through lengths from the shortest. A memory's postings all carry its length, so
once a length is done its memories have their full scores. Every share falls as length grows:
when even the most every term could earn at the next length falls short of the ``limit``-th
best score so far, no longer memory can rank, and recall stops. Within a length, the terms whose
best shares together fall short of that score cannot make a memory rank on their own (MaxScore):
their blocks are only looked up for the memories the other terms found.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass

from memory_service.recall.block_encoding import unpack

K1 = 1.2
B = 0.75
# Shares are whole millionths of a score.
SCALE = 1_000_000

Ranked = list[tuple[int, int]]  # (memory number, score in millionths), best first
# (minus the score, memory number): in answer order as they are, so sorting needs no key.
Found = list[tuple[int, int]]


@dataclass(frozen=True)
class Block:
    """The packed numbers of the memories of ``length`` terms that hold ``term`` ``tf`` times."""

    term: str
    length: int
    tf: int
    numbers: bytes


def idf(documents: int, df: int) -> float:
    """Return BM25's inverse document frequency of a term held by ``df`` of ``documents``."""
    return math.log(1 + (documents - df + 0.5) / (df + 0.5))


@dataclass(frozen=True)
class Bm25:
    """The constants of one query: per-term weights and the length normalisation."""

    weights: dict[str, float]  # idf x (k1 + 1) in millionths
    c1: float
    c2: float

    @classmethod
    def for_query(cls, *, documents: int, total_length: int, df: dict[str, int]) -> Bm25:
        """Return the model for terms held by ``df`` memories each, of ``documents`` in all."""
        documents = max(documents, max(df.values(), default=0), 1)
        weights = {term: idf(documents, n) * (K1 + 1) * SCALE for term, n in df.items()}
        average = max(total_length, 1) / documents
        return cls(weights=weights, c1=K1 * (1 - B), c2=K1 * B / average)

    def share_of(self, term: str, tf: int, length: int) -> int:
        """Return what a posting of ``term``, ``tf`` times in ``length`` terms, adds to a score."""
        return math.floor(self.weights[term] * tf / (tf + self.c1 + self.c2 * length) + 0.5)


def rank(model: Bm25, blocks: list[Block], limit: int) -> Ranked:
    """Return the best ``limit`` memories the blocks hold, by score and then by number."""
    by_length: dict[int, dict[str, list[tuple[int, bytes]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    top_tf: dict[str, int] = {}
    for block in blocks:
        by_length[block.length][block.term].append((block.tf, block.numbers))
        top_tf[block.term] = max(top_tf.get(block.term, 0), block.tf)
    best: Found = []  # the best ``limit`` so far, in answer order
    floor = None  # the score of the last of them, once there are ``limit``
    for length in sorted(by_length):
        if floor is not None and _most(model, top_tf, length) < floor:
            break
        best = heapq.nsmallest(limit, best + _score_length(model, by_length[length], length, floor))
        if len(best) == limit:
            floor = -best[-1][0]
    return [(number, -negated) for negated, number in best]


def _most(model: Bm25, top_tf: dict[str, int], length: int) -> int:
    """Return the most a memory of ``length`` (or more) terms can score."""
    return sum(model.share_of(term, tf, length) for term, tf in top_tf.items())


def _score_length(
    model: Bm25, held: dict[str, list[tuple[int, bytes]]], length: int, floor: int | None
) -> Found:
    """Return the full score of every memory of ``length`` terms that reaches ``floor``."""
    best = {
        term: model.share_of(term, max(tf for tf, _ in runs), length) for term, runs in held.items()
    }
    looked_up: list[str] = []  # the weakest terms, which together cannot reach the floor
    if floor is not None:
        total = 0
        for term in sorted(best, key=lambda term: (best[term], term)):
            if total + best[term] >= floor:
                break
            total += best[term]
            looked_up.append(term)
    # A memory holds a term with one tf: a block whose share, with the best of every other
    # term, falls short of the floor holds no memory that can reach it.
    everything = sum(best.values())
    reach = -1 if floor is None else floor
    summed = sorted(
        (
            (share, unpack(numbers))
            for term, runs in held.items()
            if term not in looked_up
            for tf, numbers in runs
            if (share := model.share_of(term, tf, length)) + everything - best[term] >= reach
        ),
        key=lambda block: -len(block[1]),
    )
    if not summed:  # every term here is too weak to matter
        return []
    # The largest block fills the dictionary in one C call; the others are added in a loop.
    (share, numbers), *others = summed
    scores = dict.fromkeys(numbers, share)
    for share, numbers in others:
        for number in numbers:
            scores[number] = scores.get(number, 0) + share
    if floor is None or not scores:
        return [(-score, number) for number, score in scores.items()]
    rest = sum(best[term] for term in looked_up)
    for term in looked_up:
        # Only memories that the looked-up terms could still lift to the floor are looked up.
        if min(scores.values()) + rest < floor:
            scores = {number: score for number, score in scores.items() if score + rest >= floor}
            if not scores:
                return []
        for tf, packed in held[term]:
            share = model.share_of(term, tf, length)
            for number in scores.keys() & unpack(packed):
                scores[number] += share
        rest -= best[term]
    return [(-score, number) for number, score in scores.items() if score >= floor]
