"""The contract's scopes: what a memory service API key may do."""

from __future__ import annotations

MEMORIES_READ = "memories:read"
MEMORIES_WRITE = "memories:write"
STATS_READ = "stats:read"
KEYS_MANAGE = "keys:manage"

ALL_SCOPES = [MEMORIES_READ, MEMORIES_WRITE, STATS_READ, KEYS_MANAGE]
# A newly minted key's scopes when none are asked for (the contract's default).
DEFAULT_SCOPES = [MEMORIES_READ, MEMORIES_WRITE, STATS_READ]


def default_scopes() -> list[str]:
    """Return a fresh copy of the default scopes (a model default must be a callable)."""
    return list(DEFAULT_SCOPES)


def missing_scopes(held: list[str], wanted: list[str]) -> list[str]:
    """Return the scopes of ``wanted`` that ``held`` lacks, in ``wanted``'s order."""
    return [scope for scope in wanted if scope not in held]
