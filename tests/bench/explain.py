"""EXPLAIN ANALYZE the SQL that GET /v1/files runs, as the service itself builds it.

Run by the bench in a subprocess with the service's environment:
``python -m tests.bench.explain <org id> <scenarios as JSON>``; prints JSON, one item per scenario:
each query the listing ran, its time in the service's connection, and its plan.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any


def captured_sql(run: Callable[[], object]) -> list[dict[str, Any]]:
    """Run ``run`` once to warm the connection and caches (as a bench's untimed requests do),
    then again; return each statement of the second run with its parameters and time."""
    from django.db import connection

    captured: list[dict[str, Any]] = []

    def capture(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            elapsed = (time.perf_counter() - started) * 1000
            captured.append({"sql": sql, "params": params, "ms": elapsed})

    run()
    with connection.execute_wrapper(capture):
        run()
    return captured


def explain(org_id: str, scenarios: dict[str, dict[str, str]]) -> dict[str, list[dict[str, Any]]]:
    import psycopg
    from django.db import connection

    from storage_service.accounts.models import Organisation
    from storage_service.files.listing import FileQuery, list_files
    from storage_service.files.serializers import FileListQuerySerializer

    org = Organisation.objects.get(pk=org_id)
    report: dict[str, list[dict[str, Any]]] = {}
    for name, params in scenarios.items():
        serializer = FileListQuerySerializer(data=params)
        serializer.is_valid(raise_exception=True)
        query = FileQuery(**serializer.validated_data)
        captured = captured_sql(functools.partial(list_files, org, query))
        for item in captured:
            with connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {item['sql']}", item["params"])
                item["plan"] = "\n".join(row[0] for row in cursor.fetchall())
            # Server-side binding (settings: prepared statements) has no mogrify: a client-side
            # cursor on the same connection writes the parameters into the text.
            with psycopg.ClientCursor(connection.connection) as cursor:
                item["sql"] = cursor.mogrify(item["sql"], item["params"])
            item["params"] = None
        report[name] = [item for item in captured if "files_file" in item["sql"]]
    return report


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "storage_service.settings")
    import django

    django.setup()
    org_id, scenarios = sys.argv[1], json.loads(sys.argv[2])
    json.dump(explain(org_id, scenarios), sys.stdout)


if __name__ == "__main__":
    main()


def queries_text(heading: str, queries: list[dict[str, Any]]) -> list[str]:
    """One case of a plans file: its heading, then each query with its time, SQL and plan."""
    out = [heading]
    for query in queries:
        out += [
            f"--- {query['ms']:.1f} ms in the service's connection",
            query["sql"],
            "",
            query["plan"],
            "",
        ]
    return out
