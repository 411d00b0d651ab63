"""Time POST /v1/recall on many memories in one organisation, in a throwaway PostgreSQL database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \\
        .venv/bin/python -m tests.bench.recall_scoring --memories 100000

The memories and queries come from the benchmark's corpus (tests/bench/memory_corpus.py: Zipf
vocabularies, so that "user", "work" and "code" are each held by a third or more of the
memories), plus the labelled queries of tests/data/recall.jsonl. ``--verify`` first checks that
the pruned ranking answers every query exactly like scoring all postings. Not a test: it asserts
nothing and prints figures; ``--keep`` and ``--reuse`` skip reloading between runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path

import psycopg

from tests.bench import memory_corpus

DATA = Path(__file__).resolve().parents[1] / "data"
BATCH = 5000


def _queries(count: int) -> list[str]:
    labelled = [json.loads(line)["query"] for line in (DATA / "recall.jsonl").open()]
    return [query for _, query in memory_corpus.recall_queries(count)] + labelled


def _load(org, count: int) -> None:
    from memory_service.memories.models import Memory
    from memory_service.memories.normalise import fingerprint
    from memory_service.recall.index import index_entries

    statements = iter(memory_corpus.memories())  # distinct statements, without end
    prints: set[str] = set()  # the service's notion of "the same" is a little wider
    loaded = 0
    while loaded < count:
        memories = []
        for statement in itertools.islice(statements, min(BATCH, count - loaded)):
            print_ = fingerprint(statement.content)
            if print_ not in prints:
                prints.add(print_)
                memories.append(
                    Memory(
                        organisation=org,
                        content=statement.content,
                        fingerprint=print_,
                        kind=statement.kind,
                        domain=statement.domain,
                    )
                )
        Memory.objects.bulk_create(memories)
        index_entries(memory.recall_entry() for memory in memories)
        loaded += len(memories)
        print(f"  {loaded} memories", file=sys.stderr)


def _percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    p99 = ordered[int(0.99 * (len(ordered) - 1))]
    return (
        f"n={len(ordered)} p50={statistics.median(ordered):.2f}ms p95={p95:.2f}ms "
        f"p99={p99:.2f}ms max={ordered[-1]:.2f}ms"
    )


def _measure(org, key_secret: str, queries: list[str], rounds: int) -> None:
    from unittest import mock

    from rest_framework.test import APIClient

    from memory_service.recall import scoring, search

    ranking: list[float] = []

    def timed_rank(model, blocks, limit):
        start = time.perf_counter()
        try:
            return scoring.rank(model, blocks, limit)
        finally:
            ranking.append((time.perf_counter() - start) * 1000)

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {key_secret}")
    for query in queries:  # warm the caches and the connection
        search.search(org=org, query=query, limit=8)
    direct, http, slowest = [], [], []
    for _ in range(rounds):
        for query in queries:
            start = time.perf_counter()
            with mock.patch.object(search, "rank", timed_rank):
                search.search(org=org, query=query, limit=8)
            direct.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            response = client.post("/api/v1/recall", {"query": query, "limit": 8}, format="json")
            elapsed = (time.perf_counter() - start) * 1000
            assert response.status_code == 200, response.content
            http.append(elapsed)
            slowest.append((elapsed, query))
    print(f"recall():          {_percentiles(direct)}")
    print(f"  its rank():      {_percentiles(ranking)} (queries with a held term)")
    print(f"POST /v1/recall:   {_percentiles(http)}")
    for elapsed, query in sorted(slowest, reverse=True)[:5]:
        print(f"  slow: {elapsed:.2f}ms {query!r}")


def _verify(org, queries: list[str]) -> None:
    """Check that the pruned ranking equals scoring every posting, query by query."""
    from unittest import mock

    from memory_service.recall import scoring, search

    def unpruned(model, blocks, limit):
        # With a limit above the memory count there is never a threshold: every posting is scored.
        return scoring.rank(model, blocks, sys.maxsize)[:limit]

    differ = []
    for query in queries:
        pruned = search.search(org=org, query=query, limit=8)
        with mock.patch.object(search, "rank", unpruned):
            full = search.search(org=org, query=query, limit=8)
        if pruned != full:
            differ.append(query)
    print(f"pruned == full scan on {len(queries) - len(differ)}/{len(queries)} queries {differ}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--settings", default="tests.memory.settings")
    parser.add_argument("--keep", action="store_true", help="leave the database in place")
    parser.add_argument("--reuse", metavar="DATABASE", help="time a database left by --keep")
    parser.add_argument("--verify", action="store_true", help="compare with a full scan")
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("Set DATABASE_URL to a PostgreSQL server; a throwaway database is made on it.")
    name = args.reuse or f"recall_bench_{os.getpid()}"
    if not args.reuse:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
    os.environ["DATABASE_URL"] = url.rsplit("/", 1)[0] + f"/{name}"
    os.environ.setdefault("SECRET_KEY", "bench-only")
    os.environ["DJANGO_SETTINGS_MODULE"] = args.settings
    try:
        _run(args)
    finally:
        if not (args.keep or args.reuse):
            from django.db import connections

            connections.close_all()
            with psycopg.connect(url, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {name}")
        else:
            print(f"database kept: {name}")


def _run(args: argparse.Namespace) -> None:
    import django
    from django.core.management import call_command
    from django.db import connection

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    from memory_service.accounts.models import Organisation
    from memory_service.accounts.scopes import ALL_SCOPES
    from tests.memory.factories import ApiKeyFactory, OrganisationFactory

    if args.reuse:
        org = Organisation.objects.get()
    else:
        call_command("migrate", verbosity=0)
        org = OrganisationFactory.create()
        start = time.perf_counter()
        _load(org, args.memories)
        print(f"loaded {args.memories} memories in {time.perf_counter() - start:.0f}s")
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    key = ApiKeyFactory.create(organisation=org, scopes=list(ALL_SCOPES))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT term, SUM(LENGTH(numbers)) / 8 FROM recall_postingblock"
            " GROUP BY term ORDER BY 2 DESC LIMIT 6"
        )
        print("commonest terms:", ", ".join(f"{term} {n}" for term, n in cursor.fetchall()))
    queries = _queries(args.queries)
    if args.verify:
        _verify(org, queries)
    _measure(org, key.secret, queries, args.rounds)


if __name__ == "__main__":
    main()
