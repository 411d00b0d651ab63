"""BM25 ranking from postings, computed in the database, reading few of the query terms' postings.

A posting's share of a score is ``floor(weight x tf / (tf + c1 + c2 x length) + 0.5)`` in
millionths, an integer; a memory's score is the sum of its shares. Integer sums do not depend on
the order the database adds in, so equal memories tie exactly, and ties break by memory id.

Up to ``FULL_SCAN_POSTINGS`` postings, one aggregate scores them all. Beyond, the ranking is
still exact but reads only the postings that can matter, in three short statements:

1. The heads of each term's postings (index order: per tf, shortest first) name a few real
   memories; their postings of the query's terms are fetched and scored in Python. The
   ``limit``-th best of them, ``floor``, is a lower bound on the answer's last score.
2. Every share falls as a memory's length grows, and all postings of a memory carry its length.
   So for each term and tf there is a longest length at which such a posting, plus the most
   every other term could add at that length, still reaches ``floor`` (TermStats keeps each
   term's largest tf). A memory with any posting beyond its bound scores below ``floor``.
3. One aggregate over only the postings within their bounds therefore gives every memory that
   can rank its full score, and every other memory less than ``floor``: its best ``limit`` are
   the answer. Python computes the bounds with the database's floating-point steps, and leaves
   a margin of one millionth a term besides.

The statements are written as SQL, not built with the ORM: a recall is a few milliseconds of
database work, and composing ORM expressions for each one cost more than that. Every value is a
parameter; only table names and the fixed operators ``=`` and ``>`` are put into the text.
"""

from __future__ import annotations

import functools
import heapq
import math
from dataclasses import dataclass, field

from django.db import connection

from memory_service.recall.models import MAX_SMALL, Posting

K1 = 1.2
B = 0.75
# Shares are whole millionths of a score.
SCALE = 1_000_000
# At or below this many postings, one aggregate over all of them is cheaper than pruning.
FULL_SCAN_POSTINGS = 4000
# tf values bounded one by one; higher ones, rare in short texts, share one bound.
EXACT_TF = 3
# Postings read from the head of each (term, tf) run to find a floor, as a multiple of limit:
# enough that memories holding several of the terms are among them.
HEAD = 8
# What finding a memory's postings of the looked-up terms costs, in postings summed.
LOOKUP_COST = 5

Ranked = list[tuple[str, int]]  # (memory id, score in millionths), best first

_TABLE = Posting._meta.db_table


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

    def share_sql(self, terms: list[str]) -> tuple[str, list[object]]:
        """Return the SQL of a posting's share, for postings of ``terms``, with the steps of
        ``share_of``; one term's weight is a constant, several are chosen by ``term``."""
        # Typed parameters: a bare one is a numeric literal to PostgreSQL, slow and inexact.
        double = "CAST(%s AS DOUBLE PRECISION)"
        if len(terms) == 1:
            weight, params = double, [self.weights[terms[0]]]
        else:
            weight = "(CASE term " + " ".join(f"WHEN %s THEN {double}" for _ in terms) + " END)"
            params = [value for term in terms for value in (term, self.weights[term])]
        saturation = f"(tf / ((tf + {double}) + ({double} * length)))"
        return f"CAST(FLOOR({weight} * {saturation} + 0.5) AS BIGINT)", [*params, self.c1, self.c2]

    def share_of(self, term: str, tf: int, length: int) -> int:
        """Return the share of a posting, with the database's floating-point steps."""
        saturation = tf / ((tf + self.c1) + (self.c2 * length))
        return math.floor(self.weights[term] * saturation + 0.5)

    def most(self, term: str, length: int) -> int:
        """Return the most a posting of ``term`` can earn in a memory of ``length`` terms."""
        return self.share_of(term, max(self.terms[term].max_tf, 1), length)


def rank(*, org_id: str, model: Bm25, limit: int) -> Ranked:
    """Return the best ``limit`` memories of organisation ``org_id`` for the model's terms."""
    everything = _Plan(arms=[(term, None, None) for term in model.terms])
    if sum(t.documents for t in model.terms.values()) <= FULL_SCAN_POSTINGS:
        return _top(org_id, model, everything, limit)
    floor = _floor(org_id, model, limit)
    if floor is None:  # fewer than ``limit`` memories in all the heads: every posting counts
        return _top(org_id, model, everything, limit)
    return _top(org_id, model, _plan(model, floor), limit)


# An arm: a term, a tf condition (None: any; ("=", n) or (">", n)), the longest length that counts.
Arm = tuple[str, tuple[str, int] | None, int | None]


@dataclass(frozen=True)
class _Plan:
    """The postings to sum (``arms``), and the terms only looked up for the memories found."""

    arms: list[Arm]
    looked_up: list[str] = field(default_factory=list)


def _plan(model: Bm25, guess: int) -> _Plan:
    """Return what to read for the memories that can score ``guess`` (MaxScore's split).

    The terms whose best shares together fall short of ``guess`` cannot make a memory rank on
    their own: only the other terms' postings find memories, and these terms are looked up for
    them. Each arm reads only the lengths at which its postings can still reach ``guess``.
    """
    needed = guess - len(model.terms)  # a millionth a term for rounding, to be safe
    by_best = sorted(model.terms, key=lambda t: (model.most(t, model.terms[t].min_length), t))
    looked_up: list[str] = []
    total = 0
    for term in by_best:
        total += model.most(term, model.terms[term].min_length)
        if total >= needed:
            break
        looked_up.append(term)
    # A lookup costs the database several times what summing a posting does: split only when
    # the terms left to sum are that much rarer than all of them.
    summed = sum(model.terms[t].documents for t in model.terms if t not in looked_up)
    if looked_up and summed * LOOKUP_COST > sum(t.documents for t in model.terms.values()):
        looked_up = []
    arms: list[Arm] = []
    for term in sorted(set(model.terms) - set(looked_up)):
        others = [t for t in model.terms if t != term]
        for condition, tf in _runs(model, term):

            def reaches(length: int, term: str = term, tf: int = tf, others: list = others) -> bool:
                most = model.share_of(term, tf, length)
                return most + sum(model.most(t, length) for t in others) >= needed

            longest = _longest(reaches, model.terms[term].min_length)
            if longest >= model.terms[term].min_length:
                arms.append((term, condition, None if longest >= MAX_SMALL else longest))
    return _Plan(arms=arms, looked_up=sorted(looked_up))


def _runs(model: Bm25, term: str) -> list[tuple[tuple[str, int], int]]:
    """Return the term's tf runs, each as its condition and the largest tf it holds."""
    max_tf = max(model.terms[term].max_tf, 1)
    runs = [(("=", tf), tf) for tf in range(1, min(max_tf, EXACT_TF) + 1)]
    if max_tf > EXACT_TF:
        runs.append(((">", EXACT_TF), max_tf))
    return runs


def _floor(org_id: str, model: Bm25, limit: int) -> int | None:
    """Return the ``limit``-th best full score among the memories at the heads of the runs."""
    parts, params = [], []
    for term in sorted(model.terms):
        for (op, tf), _ in _runs(model, term):
            parts.append(
                f"SELECT * FROM (SELECT memory_id FROM {_TABLE} WHERE organisation_id = %s"  # noqa: S608
                f" AND term = %s AND tf {op} %s ORDER BY length, memory_id LIMIT %s) AS head"
            )
            params += [org_id, term, tf, HEAD * limit]
    with connection.cursor() as cursor:
        cursor.execute(" UNION ".join(parts), params)
        ids = sorted(row[0] for row in cursor.fetchall())
        if len(ids) < limit:
            return None
        terms = sorted(model.terms)
        cursor.execute(
            f"SELECT memory_id, term, tf, length FROM {_TABLE} WHERE memory_id IN "  # noqa: S608
            f"({', '.join(['%s'] * len(ids))}) AND term IN ({', '.join(['%s'] * len(terms))})"
            " AND organisation_id = %s",
            [*ids, *terms, org_id],
        )
        scores: dict[str, int] = dict.fromkeys(ids, 0)
        for memory_id, term, tf, length in cursor.fetchall():
            scores[memory_id] += model.share_of(term, tf, length)
    return heapq.nlargest(limit, scores.values())[-1]


def _longest(reaches, shortest: int) -> int:
    """Return the largest length that ``reaches`` (which falls with length), or shortest - 1."""
    low, high = shortest - 1, MAX_SMALL
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if reaches(middle) else (low, middle - 1)
    return low


def _top(org_id: str, model: Bm25, plan: _Plan, limit: int) -> Ranked:
    """Sum the shares of the postings the plan selects, per memory; the best ``limit``."""
    parts, params = [], []
    for term, condition, longest in plan.arms:
        share, share_params = model.share_sql([term])
        sql = f"SELECT memory_id, {share} AS share FROM {_TABLE} WHERE organisation_id = %s"  # noqa: S608
        sql += " AND term = %s"
        params += [*share_params, org_id, term]
        if condition is not None:
            sql += f" AND tf {condition[0]} %s"
            params.append(condition[1])
        if longest is not None:
            sql += " AND length <= %s"
            params.append(longest)
        parts.append(sql)
    if not parts:
        return []
    shares = " UNION ALL ".join(parts)
    found = f"SELECT memory_id, SUM(share) AS score FROM ({shares}) AS shares GROUP BY memory_id"  # noqa: S608
    if plan.looked_up:
        # A correlated subquery: one index lookup per memory found, never a scan of the
        # looked-up terms' postings (which are the commonest).
        share, lookup_params = model.share_sql(plan.looked_up)
        lookup = (
            f"SELECT SUM({share}) FROM {_TABLE} looked WHERE looked.organisation_id = %s"  # noqa: S608
            f" AND looked.memory_id = found.memory_id"
            f" AND looked.term IN ({', '.join(['%s'] * len(plan.looked_up))})"
        )
        lookup_params += [org_id, *plan.looked_up]
        found = (
            f"SELECT memory_id, score + COALESCE(({lookup}), 0) AS score FROM ({found}) AS found"  # noqa: S608
        )
        params = lookup_params + params
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT memory_id, score FROM ({found}) AS scored"  # noqa: S608
            f" ORDER BY score DESC, memory_id{_bytewise_collation()} LIMIT %s",
            [*params, limit],
        )
        return [(memory_id, int(score)) for memory_id, score in cursor.fetchall()]


def _bytewise_collation() -> str:
    """Return the COLLATE clause that orders ids byte by byte, as Python compares them."""
    return "" if _bytewise() else ' COLLATE "C"'


@functools.cache
def _bytewise() -> bool:
    """Tell whether the database already orders text byte by byte (SQLite; PostgreSQL in C)."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT datcollate FROM pg_database WHERE datname = current_database()")
        return cursor.fetchone()[0] in {"C", "POSIX", "C.UTF-8", "C.utf8"}
