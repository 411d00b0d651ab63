from __future__ import annotations

import multiprocessing
import time

import pytest
from django.db import connections
from rest_framework.test import APIClient

from tests.storage.factories import ApiKeyFactory, OrganisationFactory

pytestmark = pytest.mark.django_db

HEADERS = [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit",
    "RateLimit-Policy",
]


@pytest.fixture
def small_plans(settings):
    """Shrink the hourly limits so a test can reach them in a few requests."""
    settings.PLANS = {
        name: {**limits, "requestsPerHour": {"free": 3, "creator": 5}.get(name, 100)}
        for name, limits in settings.PLANS.items()
    }


def assert_rate_headers(response, limit, remaining):
    for header in HEADERS:
        assert header in response, header
    assert response["X-RateLimit-Limit"] == str(limit)
    assert response["X-RateLimit-Remaining"] == str(remaining)
    reset = int(response["X-RateLimit-Reset"])
    assert reset % 3600 == 0 and 0 < reset - time.time() <= 3600
    assert response["RateLimit-Policy"] == f'"hourly";q={limit};w=3600'
    assert response["RateLimit"].startswith(f'"hourly";r={remaining};t=')


@pytest.mark.parametrize("plan", ["free", "creator", "studio", "production"])
def test_each_plan_has_the_contracts_hourly_limit(client_for, plan):
    key = ApiKeyFactory(organisation=OrganisationFactory(plan=plan))
    expected = {"free": 1000, "creator": 10000, "studio": 50000, "production": 100000}[plan]
    assert_rate_headers(client_for(key).get("/v1/keys"), expected, expected - 1)


def test_headers_are_on_successes_errors_and_unknown_routes(api, small_plans):
    assert_rate_headers(api.get("/v1/keys"), 3, 2)
    assert_rate_headers(api.delete("/v1/keys/key_missing"), 3, 1)
    assert_rate_headers(api.get("/v1/nope"), 3, 0)


def test_requests_without_a_valid_key_count_per_address_with_the_free_figure(
    client_for, small_plans
):
    assert_rate_headers(client_for(None).get("/v1/keys"), 3, 2)
    assert_rate_headers(client_for("ak_garbage").get("/v1/keys"), 3, 1)


def test_over_the_limit_is_rate_limited_with_limit_and_reset(client_for, small_plans):
    key = ApiKeyFactory()
    client = client_for(key)
    statuses = [client.get("/v1/keys").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = client.get("/v1/keys")
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "RATE_LIMITED"
    assert error["details"] == {"limit": 3, "reset": int(response["X-RateLimit-Reset"])}
    assert_rate_headers(response, 3, 0)
    assert 0 < int(response["Retry-After"]) <= 3600


def test_limits_are_per_organisation_and_shared_by_its_keys(client_for, small_plans):
    org = OrganisationFactory()
    first, second = ApiKeyFactory(organisation=org), ApiKeyFactory(organisation=org)
    other = ApiKeyFactory()
    for _ in range(3):
        client_for(first).get("/v1/keys")
    assert client_for(second).get("/v1/keys").status_code == 429
    assert client_for(other).get("/v1/keys").status_code == 200


def test_the_plan_decides_the_limit(client_for, small_plans):
    key = ApiKeyFactory(organisation=OrganisationFactory(plan="creator"))
    assert_rate_headers(client_for(key).get("/v1/keys"), 5, 4)


def _hammer(secret: str, requests: int, results) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    results.put([client.get("/v1/billing").status_code for _ in range(requests)])
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_the_limit_holds_across_processes_sharing_the_counter(small_plans, settings):
    """Two processes, like two gunicorn workers, share one counter (Redis or the database)."""
    settings.PLANS["creator"]["requestsPerHour"] = 7
    key = ApiKeyFactory(organisation=OrganisationFactory(plan="creator"))
    connections.close_all()
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [context.Process(target=_hammer, args=(key.secret, 10, results)) for _ in range(2)]
    for worker in workers:
        worker.start()
    statuses = results.get(timeout=60) + results.get(timeout=60)
    for worker in workers:
        worker.join(timeout=60)
    assert statuses.count(200) == 7
    assert statuses.count(429) == 13


def test_an_unreachable_redis_fails_no_request_and_the_limit_holds_in_the_database(
    client_for, small_plans, settings
):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    key = ApiKeyFactory(organisation=OrganisationFactory(plan="free"))
    client = client_for(key)
    responses = [client.get("/v1/files") for _ in range(4)]
    assert [r.status_code for r in responses] == [200, 200, 200, 429]
    assert_rate_headers(responses[0], 3, 2)
    assert_rate_headers(client_for(None).get("/v1/files"), 3, 2)
    usage = client.get("/v1/billing/usage?period=day")
    assert usage.status_code == 429  # still counted, still limited
    settings.PLANS["free"]["requestsPerHour"] = 100
    report = client.get("/v1/billing/usage?period=day").json()["data"]
    assert report["breakdown"]["byEndpoint"]["GET /files"]["count"] == 4
