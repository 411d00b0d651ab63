"""Exact top-k BM25 over posting blocks by term-at-a-time MaxScore, scoring in Python.

A posting's impact (its contribution to a score) is
``floor(weight x tf / (tf + c1 + c2 x length) + 0.5)`` in millionths, an integer; a memory's score
is the sum of its impacts. Integer sums do not depend on the order they are added in, so equal
memories tie exactly, and ties break by document number, which orders like the memory id.

The pruning is MaxScore (Turtle & Flood, "Query evaluation: strategies and optimizations",
1995), term at a time, with a threshold: the ``limit``-th best score so far. Ranking works
through document lengths from the shortest. A memory's postings all carry its length, so once a
length is done its memories have their full scores. Every impact falls as length grows: when
the upper bound of any memory at the next length (every term at its highest tf) falls short of
the threshold, no longer memory can rank, and ranking stops. Within a length, the terms are
split as MaxScore splits them: the non-essential ones, the weakest, whose upper bounds together
fall short of the threshold, cannot make a memory rank on their own, so only the essential
terms' blocks are scored in full, and the non-essential terms are looked up for the candidates
those found, dropping each candidate that even their remaining upper bounds cannot lift to the
threshold. A block of one term, length and tf holds postings of one impact, so a block whose
impact, with every other term's upper bound, falls short of the threshold is skipped unread.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass

from memory_service.recall.block_encoding import unpack

K1 = 1.2
B = 0.75
# Impacts are whole millionths of a score.
SCALE = 1_000_000

Ranked = list[tuple[int, int]]  # (document number, score in millionths), best first
# (minus the score, document number): in answer order as they are, so sorting needs no key.
Candidates = list[tuple[int, int]]
# A term's blocks at one length: (tf, packed postings).
TermBlocks = list[tuple[int, bytes]]


@dataclass(frozen=True)
class Block:
    """The packed postings of the memories of ``length`` terms that hold ``term`` ``tf`` times."""

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

    def impact(self, term: str, tf: int, length: int) -> int:
        """Return what a posting of ``term``, ``tf`` times in ``length`` terms, adds to a score."""
        return math.floor(self.weights[term] * tf / (tf + self.c1 + self.c2 * length) + 0.5)


def rank(model: Bm25, blocks: list[Block], limit: int) -> Ranked:
    """Return the best ``limit`` memories the blocks hold, by score and then by number."""
    by_length: dict[int, dict[str, TermBlocks]] = defaultdict(lambda: defaultdict(list))
    max_tf: dict[str, int] = {}
    for block in blocks:
        by_length[block.length][block.term].append((block.tf, block.numbers))
        max_tf[block.term] = max(max_tf.get(block.term, 0), block.tf)
    top: Candidates = []  # the best ``limit`` so far, in answer order
    threshold = None  # the score of the last of them, once there are ``limit``
    for length in sorted(by_length):
        if threshold is not None and _upper_bound(model, max_tf, length) < threshold:
            break
        scored = _score_length(model, by_length[length], length, threshold)
        top = heapq.nsmallest(limit, top + scored)
        if len(top) == limit:
            threshold = -top[-1][0]
    return [(number, -negated) for negated, number in top]


def _upper_bound(model: Bm25, max_tf: dict[str, int], length: int) -> int:
    """Return the most a memory of ``length`` (or more) terms can score."""
    return sum(model.impact(term, tf, length) for term, tf in max_tf.items())


def _score_length(
    model: Bm25, term_blocks: dict[str, TermBlocks], length: int, threshold: int | None
) -> Candidates:
    """Return the full score of every memory of ``length`` terms that reaches ``threshold``."""
    bounds = {
        term: model.impact(term, max(tf for tf, _ in blocks), length)
        for term, blocks in term_blocks.items()
    }
    non_essential: list[str] = []  # the weakest terms, whose bounds sum below the threshold
    if threshold is not None:
        total = 0
        for term in sorted(bounds, key=lambda term: (bounds[term], term)):
            if total + bounds[term] >= threshold:
                break
            total += bounds[term]
            non_essential.append(term)
    # A memory holds a term with one tf: a block whose impact, with the upper bound of every
    # other term, falls short of the threshold holds no memory that can reach it.
    bound_sum = sum(bounds.values())
    block_threshold = -1 if threshold is None else threshold  # no threshold: every block is read
    essential_blocks = sorted(
        (
            (impact, unpack(numbers))
            for term, blocks in term_blocks.items()
            if term not in non_essential
            for tf, numbers in blocks
            if (impact := model.impact(term, tf, length)) + bound_sum - bounds[term]
            >= block_threshold
        ),
        key=lambda block: -len(block[1]),
    )
    if not essential_blocks:  # every term here is too weak to matter
        return []
    # The largest block fills the accumulators in one C call; the others are added in a loop.
    (impact, numbers), *others = essential_blocks
    accumulators = dict.fromkeys(numbers, impact)
    for impact, numbers in others:
        for number in numbers:
            accumulators[number] = accumulators.get(number, 0) + impact
    if threshold is None or not accumulators:
        return [(-score, number) for number, score in accumulators.items()]
    remaining_bound = sum(bounds[term] for term in non_essential)
    for term in non_essential:
        # Only candidates that the non-essential terms could still lift to the threshold are
        # looked up.
        if min(accumulators.values()) + remaining_bound < threshold:
            accumulators = {
                number: score
                for number, score in accumulators.items()
                if score + remaining_bound >= threshold
            }
            if not accumulators:
                return []
        for tf, packed in term_blocks[term]:
            impact = model.impact(term, tf, length)
            for number in accumulators.keys() & unpack(packed):
                accumulators[number] += impact
        remaining_bound -= bounds[term]
    return [(-score, number) for number, score in accumulators.items() if score >= threshold]
