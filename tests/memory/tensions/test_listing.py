"""The reads GET /v1/stats calls: counts by status and the newest open tensions."""

from __future__ import annotations

import pytest

from memory_service.tensions.listing import open_tensions, tension_counts
from memory_service.tensions.serializers import TensionSerializer
from tests.memory.tensions.factories import TensionFactory

pytestmark = pytest.mark.django_db


def test_counts_are_by_status_and_zero_when_there_are_none(org, other_org):
    assert tension_counts(org=org) == {"open": 0, "resolved": 0}
    TensionFactory.create_batch(3, organisation=org)
    TensionFactory(organisation=org, status="resolved")
    TensionFactory(organisation=other_org)
    assert tension_counts(org=org) == {"open": 3, "resolved": 1}


def test_open_tensions_are_the_newest_open_ones_with_their_memories_loaded(
    org, other_org, django_assert_num_queries
):
    made = [TensionFactory(organisation=org) for _ in range(4)]
    TensionFactory(organisation=org, status="resolved")
    TensionFactory(organisation=other_org)
    with django_assert_num_queries(1):
        found = open_tensions(org=org, limit=3)
        records = TensionSerializer(found, many=True).data
    assert [t.id for t in found] == [t.id for t in made[::-1][:3]]
    assert [r["memories"][0]["id"] for r in records] == [t.older_id for t in made[::-1][:3]]
    assert len(open_tensions(org=org)) == 4
