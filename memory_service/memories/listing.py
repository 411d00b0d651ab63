"""Reading memories: one page newest first (``pagination``), and the tier counts."""

from __future__ import annotations

from memory_service.accounts.models import Organisation
from memory_service.memories.models import TIERS, Memory, TierTally
from memory_service.pagination import newest_first_page


def memories_page(
    *,
    org: Organisation,
    tier: str | None = None,
    kind: str | None = None,
    domain: str | None = None,
    limit: int,
    cursor: str | None = None,
) -> tuple[list[Memory], str | None]:
    """Return up to ``limit`` memories newest first, and the cursor of the next page or None."""
    memories = Memory.objects.for_org(org).newest_first()
    if tier:
        memories = memories.filter(tier=tier)
    if kind:
        memories = memories.filter(kind=kind)
    if domain:
        memories = memories.filter(domain=domain)
    return newest_first_page(memories, limit=limit, cursor=cursor)


def tier_counts(org: Organisation) -> dict[str, int]:
    """Return how many memories ``org`` holds in each tier, and in all."""
    counts = dict.fromkeys(TIERS, 0)
    counts.update(TierTally.objects.filter(organisation=org).values_list("tier", "count"))
    counts["total"] = sum(counts.values())
    return counts
