"""BM25 ranking from postings, computed in the database, reading only the query terms' postings.

A posting's share of a score is ``floor(weight x tf / (tf + c1 + c2 x length) + 0.5)`` in
millionths, an integer; a memory's score is the sum of its shares. Integer sums do not depend on
the order the database adds in, so equal memories tie exactly, and ties break by memory id.

Up to ``FULL_SCAN_POSTINGS`` postings, one aggregate scores them all: on PostgreSQL that costs
about a microsecond a posting, less than any cleverness. Beyond, a term is held by a large share
of the memories, and an exact MaxScore-style pruning reads fewer:

- All postings of a memory carry its length, and a share falls as the length grows. So a memory
  of length L whose first query term (rarest first) is t scores at most t's share plus, for each
  later term, the most any of its postings could earn at length L (TermStats keeps each term's
  largest tf and shortest length). Python computes these bounds with the same floating-point
  steps as the database, so they are exact integers.
- ``floor`` is the score of the ``limit``-th best memory scored so far; the answer's last memory
  scores at least that. Before each term, if even its shortest memory cannot reach ``floor``
  with all the later terms, no memory left can rank: stop.
- Otherwise the head of the term's postings (per tf, shortest first, then by id: index order) is
  scored in full, which raises ``floor``. What is left of every term is scored at the end in one
  query, but only the lengths whose bound reaches ``floor``; at a length where the bound only
  equals it, only ids before the ``limit``-th memory's can win the tie.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Case,
    F,
    FloatField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Cast, Collate, Floor

from memory_service.accounts.models import Organisation
from memory_service.recall.models import MAX_SMALL, Posting

K1 = 1.2
B = 0.75
# Shares are whole millionths of a score.
SCALE = 1_000_000
# At or below this many postings, one aggregate over all of them is cheaper than pruning.
FULL_SCAN_POSTINGS = 25000
# tf values read as their own sorted run; higher ones, rare in short texts, are read together.
EXACT_TF = 3
# A walk scores this many times the limit of a term's best postings, then leaves the rest to
# one query at the end.
HEAD = 4

Ranked = list[tuple[str, int]]  # (memory id, score in millionths), best first


def idf(documents: int, df: int) -> float:
    """Return BM25's inverse document frequency of a term held by ``df`` of ``documents``."""
    return math.log(1 + (documents - df + 0.5) / (df + 0.5))


@dataclass(frozen=True)
class Term:
    """A query term as the index holds it."""

    term: str
    documents: int
    max_tf: int
    min_length: int


@dataclass(frozen=True)
class Bm25:
    """The constants of one query: per-term weights and the length normalisation."""

    terms: dict[str, Term]
    weights: dict[str, float]  # idf x (k1 + 1) in millionths
    c1: float
    c2: float

    @classmethod
    def for_query(cls, *, documents: int, total_length: int, terms: list[Term]) -> Bm25:
        """Return the model for ``terms`` in an index of ``documents`` memories."""
        weights = {t.term: idf(documents, t.documents) * (K1 + 1) * SCALE for t in terms}
        c2 = K1 * B / (total_length / documents)
        return cls(terms={t.term: t for t in terms}, weights=weights, c1=K1 * (1 - B), c2=c2)

    def share(self) -> Cast:
        """Return the database expression of one posting's share, as ``share_of`` computes it."""
        weight = Case(
            *[When(term=term, then=_float(value)) for term, value in self.weights.items()],
            output_field=FloatField(),
        )
        saturation = F("tf") / ((F("tf") + _float(self.c1)) + (_float(self.c2) * F("length")))
        return Cast(Floor(weight * saturation + _float(0.5)), BigIntegerField())

    def share_of(self, term: str, tf: int, length: int) -> int:
        """Return the share of a posting, with the database's floating-point steps."""
        saturation = tf / ((tf + self.c1) + (self.c2 * length))
        return math.floor(self.weights[term] * saturation + 0.5)

    def most(self, term: str, length: int) -> int:
        """Return the most a posting of ``term`` can earn in a memory of ``length`` terms."""
        return self.share_of(term, max(self.terms[term].max_tf, 1), length)


def rank(*, org: Organisation, model: Bm25, limit: int) -> Ranked:
    """Return the best ``limit`` memories of ``org`` for the model's terms."""
    postings = Posting.objects.filter(organisation=org, term__in=list(model.terms))
    if sum(t.documents for t in model.terms.values()) <= FULL_SCAN_POSTINGS:
        return top(postings, model, limit)
    ranking = _Ranking(org, model, limit)
    order = sorted(model.terms, key=lambda term: (-model.weights[term], term))
    for index, term in enumerate(order):
        later = order[index + 1 :]
        shortest = min(model.terms[t].min_length for t in order[index:])
        most = model.most(term, shortest) + ranking.rest(later, shortest)
        if ranking.full() and most < ranking.floor:
            break
        max_tf = model.terms[term].max_tf
        if max_tf > EXACT_TF:
            ranking.walk(term, Q(tf__gt=EXACT_TF), max_tf, later)
        for tf in range(min(max_tf, EXACT_TF), 0, -1):
            ranking.walk(term, Q(tf=tf), tf, later)
    ranking.finish()
    return ranking.ranked


def top(postings: QuerySet, model: Bm25, limit: int) -> Ranked:
    """Sum the shares of ``postings`` per memory; return the best ``limit``, ties by id."""
    return list(
        postings.values("memory_id")
        .annotate(score=Sum(model.share()))
        .order_by("-score", _by_id())
        .values_list("memory_id", "score")[:limit]
    )


class _Ranking:
    """The best ``limit`` memories scored so far, each scored in full, and what is left to read."""

    def __init__(self, org: Organisation, model: Bm25, limit: int) -> None:
        self.org, self.model, self.limit = org, model, limit
        self.ranked: Ranked = []
        # (term, tf bound, later terms, the run's condition): postings not read yet.
        self.left: list[tuple[str, int, list[str], Q]] = []
        self._rest: dict[tuple[tuple[str, ...], int], int] = {}

    def full(self) -> bool:
        return len(self.ranked) == self.limit

    @property
    def floor(self) -> int:
        return self.ranked[-1][1]

    def rest(self, terms: list[str], length: int) -> int:
        """Return the most ``terms`` can add together to a memory of ``length`` terms."""
        key = (tuple(terms), length)
        if key not in self._rest:
            self._rest[key] = sum(self.model.most(term, length) for term in terms)
        return self._rest[key]

    def most(self, term: str, tf: int, later: list[str], length: int) -> int:
        """Return the most a memory of ``length`` terms can score, ``term`` its first."""
        return self.model.share_of(term, tf, length) + self.rest(later, length)

    def walk(self, term: str, arm: Q, tf: int, later: list[str]) -> None:
        """Score the best memories of ``term``'s postings in ``arm``; leave the rest for later."""
        run = Q(arm, term=term)
        rows = self._postings(run).values_list("memory_id", "length")[: HEAD * self.limit]
        rows = list(rows)
        kept, rest = len(rows), None
        if len(rows) == HEAD * self.limit:
            last_id, last_length = rows[-1]
            rest = Q(length__gt=last_length) | Q(length=last_length, by_id__gt=last_id)
        for index, (memory_id, length) in enumerate(rows):
            if not self.full():
                continue
            most = self.most(term, tf, later, length)
            if most < self.floor:  # and so for every posting after it
                kept, rest = index, None
                break
            if most == self.floor and memory_id > self.ranked[-1][0]:
                # The rest of this length loses the tie on id.
                kept, rest = index, Q(length__gt=length)
                break
        if kept:
            # Sliced, so that the database knows how few memories these are.
            self.score(self._postings(run)[:kept])
        if rest is not None:
            self.left.append((term, tf, later, run & rest))

    def finish(self) -> None:
        """Score, in one query, the postings left by the walks that may still rank."""
        reaching = []
        for term, tf, later, run in self.left:
            condition = self._reaching(term, tf, later)
            if condition is not None:
                reaching.append(run & condition)
        if reaching:
            self.score(self._postings(reduce(operator.or_, reaching)))

    def score(self, postings: QuerySet) -> None:
        """Score the memories of ``postings`` in full and keep the best."""
        # A subquery, not a list of ids: the database chooses between looking each memory up
        # and hashing them all against the query's postings, and no ids travel back and forth.
        held = Posting.objects.filter(
            organisation=self.org,
            term__in=list(self.model.terms),
            memory_id__in=postings.values("memory_id"),
        )
        ranked = dict(self.ranked)
        ranked.update(top(held, self.model, self.limit))
        self.ranked = sorted(ranked.items(), key=lambda pair: (-pair[1], pair[0]))[: self.limit]

    def _postings(self, *conditions: Q) -> QuerySet:
        postings = Posting.objects.filter(organisation=self.org).alias(by_id=_by_id())
        return postings.filter(*conditions).order_by("length", "by_id")

    def _reaching(self, term: str, tf: int, later: list[str]) -> Q | None:
        """Return the lengths (and ids) at which a memory can still rank, ``term`` its first."""
        if not self.full():
            return Q()
        floor, last_id = self.floor, self.ranked[-1][0]
        shortest = self.model.terms[term].min_length

        def longest(reaches: Callable[[int], bool]) -> int:
            # The most a memory can score falls as its length grows: search for the boundary.
            low, high = shortest - 1, MAX_SMALL
            while low < high:
                middle = (low + high + 1) // 2
                low, high = (middle, high) if reaches(middle) else (low, middle - 1)
            return low

        above = longest(lambda length: self.most(term, tf, later, length) > floor)
        level = longest(lambda length: self.most(term, tf, later, length) >= floor)
        conditions = []
        if above >= shortest:
            conditions.append(Q(length__lte=above))
        if level > above:  # a tie with the last one wins only on a smaller id
            conditions.append(Q(length__gt=above, length__lte=level, by_id__lt=last_id))
        return reduce(operator.or_, conditions) if conditions else None


def _by_id() -> F | Collate:
    """Return memory ids to order by: byte by byte, as Python compares them, on every database."""
    if _bytewise():
        return F("memory_id")
    return Collate("memory_id", "C")  # right, but no longer in the index's order


@functools.cache
def _bytewise() -> bool:
    """Tell whether the database already orders text byte by byte (SQLite; PostgreSQL in C)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()")
        return cursor.fetchone()[0] in {"C", "POSIX", "C.UTF-8", "C.utf8"}


def _float(value: float) -> Cast:
    # A bare parameter would be a numeric literal to PostgreSQL, and numeric arithmetic is slow.
    return Cast(Value(value), FloatField())
