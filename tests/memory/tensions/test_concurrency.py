"""Several processes, like gunicorn workers, recording and resolving one tension at once.

Only PostgreSQL locks rows; SQLite serialises whole transactions, which proves nothing here.
"""

from __future__ import annotations

import pytest
from django.db import connection

from memory_service.memories.models import Memory
from memory_service.tensions.models import Tension
from tests.clients import race
from tests.memory.factories import MemoryFactory
from tests.memory.tensions.factories import TensionFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]

RACERS = 6


def test_racing_resolutions_of_one_tension_give_one_success(org, manager_key):
    tension = TensionFactory(organisation=org)
    keeps = [tension.older_id, tension.newer_id, "both"] * (RACERS // 3)
    path = f"/api/v1/tensions/{tension.id}"
    outcomes = race(manager_key.secret, [("post", path, {"keep": keep}) for keep in keeps])
    statuses = sorted(status for _, status, _ in outcomes)
    assert statuses == [200] + [400] * (RACERS - 1)
    assert all(b["error"] == "InvalidRequest" for _, status, b in outcomes if status == 400)
    tension.refresh_from_db()
    archived = Memory.objects.for_org(org).filter(tier="archive").count()
    assert archived == (0 if tension.kept == "both" else 1)
    assert Memory.objects.for_org(org).filter(kind="lesson").count() == 1


def test_racing_records_of_one_pair_in_either_order_make_one_tension(org, manager_key):
    first, second = MemoryFactory(organisation=org), MemoryFactory(organisation=org)
    orders = [[first.id, second.id], [second.id, first.id]] * (RACERS // 2)
    calls = [("post", "/api/v1/tensions", {"memoryIds": ids}) for ids in orders]
    outcomes = race(manager_key.secret, calls)
    assert [status for _, status, _ in outcomes] == [200] * RACERS
    assert len({body["id"] for _, _, body in outcomes}) == 1
    assert Tension.objects.for_org(org).count() == 1


def test_resolving_while_a_memory_is_forgotten_never_fails(org, manager_key):
    key = manager_key.secret
    for _ in range(3):
        tension = TensionFactory(organisation=org)
        calls = [
            ("post", f"/api/v1/tensions/{tension.id}", {"keep": tension.newer_id}),
            ("delete", f"/api/v1/memories/{tension.older_id}", None),
        ]
        # Keyed by the endpoint: "tensions" or "memories".
        outcomes = {path.split("/")[3]: status for path, status, _ in race(key, calls)}
        assert outcomes["memories"] == 200
        assert outcomes["tensions"] in (200, 404)
        assert not Tension.objects.filter(pk=tension.id).exists()
