from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import RequestFactory

from shared import keys
from storage_service import clock
from storage_service.accounts.authentication import resolve_key
from tests.storage.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


def assert_invalid_api_key(response, key_id=None):
    assert response.status_code == 401
    body = response.json()
    assert body["success"] is False
    assert body["error"]["code"] == "INVALID_API_KEY"
    assert body["error"]["details"]["keyId"] == key_id


def test_missing_authorization_is_invalid_api_key(client_for):
    assert_invalid_api_key(client_for(None).get("/v1/keys"))


def test_other_scheme_is_invalid_api_key(client_for, admin_key):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"Basic {admin_key.secret}")
    assert_invalid_api_key(client.get("/v1/keys"))


def test_key_with_broken_checksum_is_refused(client_for, admin_key):
    broken = admin_key.secret[:-1] + ("A" if admin_key.secret[-1] != "A" else "B")
    assert_invalid_api_key(client_for(broken).get("/v1/keys"))


def test_key_with_broken_checksum_is_refused_without_a_query(admin_key, django_assert_num_queries):
    broken = admin_key.secret[:-1] + ("A" if admin_key.secret[-1] != "A" else "B")
    request = RequestFactory().get("/v1/keys", HTTP_AUTHORIZATION=f"Bearer {broken}")
    with django_assert_num_queries(0):
        assert resolve_key(request).error is not None


def test_unknown_well_formed_key_is_invalid_api_key(client_for):
    unknown = keys.generate("ak_")
    assert_invalid_api_key(client_for(unknown).get("/v1/keys"))


def test_revoked_key_is_invalid_api_key_naming_the_key(client_for):
    key = ApiKeyFactory(revoked_at=clock.now())
    assert_invalid_api_key(client_for(key).get("/v1/keys"), key_id=key.pk)


def test_expired_key_is_invalid_api_key_naming_the_key(client_for):
    key = ApiKeyFactory(expires_at=clock.now() - timedelta(seconds=1))
    assert_invalid_api_key(client_for(key).get("/v1/keys"), key_id=key.pk)


def test_key_that_expires_later_works(client_for):
    key = ApiKeyFactory(expires_at=clock.now() + timedelta(days=1))
    assert client_for(key).get("/v1/keys").status_code == 200


def test_bearer_scheme_is_case_insensitive(client_for, admin_key):
    client = client_for(None)
    client.credentials(HTTP_AUTHORIZATION=f"bearer {admin_key.secret}")
    assert client.get("/v1/keys").status_code == 200


def test_use_records_last_used_at_at_most_once_a_minute(client_for, admin_key):
    client = client_for(admin_key)
    client.get("/v1/keys")
    admin_key.refresh_from_db()
    first = admin_key.last_used_at
    assert first is not None
    client.get("/v1/keys")
    admin_key.refresh_from_db()
    assert admin_key.last_used_at == first


def test_stale_last_used_at_is_refreshed(client_for, admin_key):
    stale = clock.now() - timedelta(minutes=5)
    type(admin_key).objects.filter(pk=admin_key.pk).update(last_used_at=stale)
    client_for(admin_key).get("/v1/keys")
    admin_key.refresh_from_db()
    assert admin_key.last_used_at > stale


def test_last_used_at_is_reported_by_the_keys_list(api, admin_key):
    api.get("/v1/keys")
    listed = api.get("/v1/keys").json()["data"]["keys"]
    assert listed[0]["lastUsedAt"] is not None
