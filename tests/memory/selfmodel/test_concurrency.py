"""Several processes, like gunicorn workers, recording outcomes of one new domain at once."""

from __future__ import annotations

import pytest

from memory_service.selfmodel.models import Domain, Note
from tests.memory.memories.test_concurrency import post_at_once

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/self-model/outcome"
WORKERS = 12


def test_racing_outcomes_for_one_new_domain_all_count(org, manager_key):
    bodies = [
        {
            "domain": "Deploys" if n % 2 else " deploys",
            "success": n % 3 == 0,
            "failurePattern": "Forgot the migration" if n % 4 == 1 else "",
            "strategy": "run the checks first",
        }
        for n in range(WORKERS)
    ]
    outcomes = post_at_once(manager_key.secret, URL, bodies)
    assert [status for status, _ in outcomes] == [200] * WORKERS
    domain = Domain.objects.for_org(org).get()
    successes = sum(1 for n in range(WORKERS) if n % 3 == 0 and n % 4 != 1)
    assert (domain.successes, domain.failures) == (successes, WORKERS - successes)
    counts = dict(Note.objects.filter(domain=domain).values_list("kind", "count"))
    assert counts == {"strategy": WORKERS, "failure_pattern": WORKERS // 4}
