"""A cached key answer never outlives a change: a revoked key is refused at once, by this process
and by another (with Redis, CI's second run, keys are cached in each process)."""

from __future__ import annotations

import uuid

import pytest

from memory_service import clock
from memory_service.accounts.models import ApiKey
from memory_service.accounts.scopes import ALL_SCOPES
from tests.memory.factories import ApiKeyFactory, OrganisationFactory
from tests.second_process import SecondProcess

pytestmark = pytest.mark.django_db
SETTINGS = "tests.memory.settings"


def test_a_key_in_use_and_then_revoked_is_refused_at_once(api, org, client_for):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    assert client.get("/api/v1/memories").status_code == 200
    assert client.get("/api/v1/memories").status_code == 200
    assert api.delete(f"/api/v1/keys/{key.pk}").status_code == 200
    assert client.get("/api/v1/memories").status_code == 401


def test_a_key_revoked_by_a_queryset_update_is_refused_at_once(org, client_for):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    assert client.get("/api/v1/memories").status_code == 200
    ApiKey.objects.filter(pk=key.pk).update(revoked_at=clock.now())  # the admin's revoke action
    assert client.get("/api/v1/memories").status_code == 401


def test_scopes_changed_on_the_model_apply_at_once(org, client_for):
    key = ApiKeyFactory(organisation=org)
    client = client_for(key)
    assert client.get("/api/v1/memories").status_code == 200
    key.scopes = ["keys:manage"]
    key.save()
    assert client.get("/api/v1/memories").status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_key_revoked_through_one_process_is_refused_by_another_at_once(settings, client_for):
    settings.REDIS_NAMESPACE = f"memory-test-{uuid.uuid4().hex[:12]}"
    org = OrganisationFactory()
    manager = ApiKeyFactory(organisation=org, scopes=list(ALL_SCOPES))
    victim = ApiKeyFactory(organisation=org)
    with SecondProcess(SETTINGS, {"REDIS_NAMESPACE": settings.REDIS_NAMESPACE}) as other:
        assert other.request("GET", "/api/v1/memories", victim.secret, repeat=3) == [200] * 3
        assert client_for(manager).delete(f"/api/v1/keys/{victim.pk}").status_code == 200
        assert other.request("GET", "/api/v1/memories", victim.secret) == [401]
