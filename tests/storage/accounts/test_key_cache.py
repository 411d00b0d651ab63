"""What a cached key answer must never change: a revoked key is refused at once, by this process
and by another; a plan change applies at once; the hourly limit holds exactly across
processes; lastUsedAt lags at most a minute.

With Redis (CI's second run) keys are cached in each process and every one of these checks the
cache; without it they check that the service reads the database each time.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage_service import clock
from storage_service.accounts.models import ApiKey
from tests.second_process import SecondProcess
from tests.storage.envelope import error_of
from tests.storage.factories import ApiKeyFactory, OrganisationFactory

pytestmark = pytest.mark.django_db
SETTINGS = "tests.storage.settings"


def test_a_key_in_use_and_then_revoked_is_refused_at_once(api, admin_key, client_for):
    key = ApiKeyFactory(organisation=admin_key.organisation, permissions=["files:read"])
    victim = client_for(key)
    assert victim.get("/v1/files").status_code == 200
    assert victim.get("/v1/files").status_code == 200
    assert api.delete(f"/v1/keys/{key.pk}").status_code == 200
    error_of(victim.get("/v1/files"), 401, "INVALID_API_KEY")


def test_a_key_revoked_by_a_queryset_update_is_refused_at_once(org, client_for):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    assert client.get("/v1/files").status_code == 200
    # What the admin's revoke action does.
    ApiKey.objects.filter(pk=key.pk).update(revoked_at=clock.now())
    error_of(client.get("/v1/files"), 401, "INVALID_API_KEY")


def test_a_deleted_key_is_refused_at_once(org, client_for):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    assert client.get("/v1/files").status_code == 200
    key.delete()
    error_of(client.get("/v1/files"), 401, "INVALID_API_KEY")


def test_a_plan_changed_in_the_admin_applies_to_the_next_request(org, client_for):
    client = client_for(ApiKeyFactory(organisation=org))
    assert client.get("/v1/files")["X-RateLimit-Limit"] == "1000"
    org.plan = "studio"
    org.save()
    assert client.get("/v1/files")["X-RateLimit-Limit"] == "50000"


def test_a_cached_key_expires_on_time(org, client_for, monkeypatch):
    now = clock.now()
    client = client_for(ApiKeyFactory(organisation=org, expires_at=now + timedelta(minutes=5)))
    assert client.get("/v1/files").status_code == 200
    monkeypatch.setattr(clock, "now", lambda: now + timedelta(minutes=5))
    error = error_of(client.get("/v1/files"), 401, "INVALID_API_KEY")
    assert "expired" in error["message"]


def test_usage_counters_are_never_taken_from_the_cache(api, admin_key, org):
    assert api.get("/v1/billing").json()["data"]["currentUsage"]["storage"] == 0
    type(org).objects.filter(pk=org.pk).update(storage_used=1234, file_count=2)
    usage = api.get("/v1/billing").json()["data"]["currentUsage"]
    assert (usage["storage"], usage["files"]) == (1234, 2)


def test_last_used_at_lags_at_most_a_minute(org, client_for, monkeypatch):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    start = clock.now()
    monkeypatch.setattr(clock, "now", lambda: start)
    client.get("/v1/files")
    key.refresh_from_db()
    assert key.last_used_at == start
    monkeypatch.setattr(clock, "now", lambda: start + timedelta(seconds=30))
    client.get("/v1/files")
    key.refresh_from_db()
    assert key.last_used_at == start  # within the minute: no write
    later = start + timedelta(seconds=61)
    monkeypatch.setattr(clock, "now", lambda: later)
    client.get("/v1/files")
    key.refresh_from_db()
    assert key.last_used_at == later


@pytest.mark.django_db(transaction=True)
def test_a_key_revoked_through_one_process_is_refused_by_another_at_once(settings, client_for):
    org = OrganisationFactory()
    admin = ApiKeyFactory(organisation=org, permissions=["admin"])
    victim = ApiKeyFactory(organisation=org, permissions=["files:read"])
    overrides = {"RATE_LIMIT_NAMESPACE": settings.RATE_LIMIT_NAMESPACE}
    with SecondProcess(SETTINGS, overrides) as other:
        assert other.request("GET", "/v1/files", victim.secret, repeat=3) == [200] * 3
        assert client_for(admin).delete(f"/v1/keys/{victim.pk}").status_code == 200
        assert other.request("GET", "/v1/files", victim.secret) == [401]


@pytest.mark.django_db(transaction=True)
def test_a_plan_changed_through_one_process_applies_in_another_at_once(settings):
    org = OrganisationFactory()
    key = ApiKeyFactory(organisation=org)
    overrides = {"RATE_LIMIT_NAMESPACE": settings.RATE_LIMIT_NAMESPACE}
    with SecondProcess(SETTINGS, overrides) as other:
        assert other.request("GET", "/v1/files", key.secret) == [200]
        assert other.headers["X-RateLimit-Limit"] == "1000"
        org.plan = "creator"
        org.save()
        assert other.request("GET", "/v1/files", key.secret) == [200]
        assert other.headers["X-RateLimit-Limit"] == "10000"


@pytest.mark.django_db(transaction=True)
def test_the_hourly_limit_holds_exactly_across_two_processes(settings, client_for):
    limit, each = 40, 30
    plans = {**settings.PLANS, "free": {**settings.PLANS["free"], "requestsPerHour": limit}}
    settings.PLANS = plans
    key = ApiKeyFactory(organisation=OrganisationFactory(), permissions=["files:read"])
    overrides = {"RATE_LIMIT_NAMESPACE": settings.RATE_LIMIT_NAMESPACE, "PLANS": plans}
    client = client_for(key)
    with SecondProcess(SETTINGS, overrides) as other:
        assert other.request("GET", "/v1/files", key.secret) == [200]  # warm: its key is cached
        assert client.get("/v1/files").status_code == 200
        # The other process sends its requests while this one sends its own.
        other.send("GET", "/v1/files", key.secret, repeat=each)
        mine = [client.get("/v1/files").status_code for _ in range(each)]
        theirs = other.statuses()
    statuses = mine + theirs
    assert statuses.count(200) == limit - 2
    assert statuses.count(429) == 2 * each - (limit - 2)
