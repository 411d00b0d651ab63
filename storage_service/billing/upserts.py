"""Adding to counter rows with one statement per batch, exact under concurrent writers."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from django.db import connection


def add_to_rows(
    table: str, keys: tuple[str, ...], values: tuple[str, ...], rows: Sequence[Sequence[int | str]]
) -> None:
    """Insert each row, or add its ``values`` to the row with the same ``keys``.

    ``INSERT ... ON CONFLICT DO UPDATE`` is atomic on PostgreSQL and SQLite (3.24+): concurrent
    requests never lose a count and never race on the first insert of a row.
    """
    if not rows:
        return
    with connection.cursor() as cursor:
        cursor.executemany(adding_sql(table, keys, values), [list(row) for row in rows])


@cache
def adding_sql(table: str, keys: tuple[str, ...], values: tuple[str, ...]) -> str:
    """The statement ``add_to_rows`` runs for each row (parameters: keys, then values); made
    once, since the rate limiter asks for it on every request."""
    columns = [*keys, *values]
    additions = ", ".join(f"{name} = {table}.{name} + excluded.{name}" for name in values)
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) "  # noqa: S608 - names are ours
        f"VALUES ({', '.join(['%s'] * len(columns))}) "
        f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {additions}"
    )
