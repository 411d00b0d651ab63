from __future__ import annotations

from datetime import timedelta

import pytest

from memory_service import clock
from shared import keys
from tests.memory.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


def assert_unauthorized(response, message: str | None = None) -> None:
    assert response.status_code == 401
    body = response.json()
    assert body["error"] == "Unauthorized"
    assert set(body) == {"error", "message"}
    if message is not None:
        assert body["message"] == message
    assert response["WWW-Authenticate"] == 'Bearer realm="memory"'


def test_a_missing_key_is_unauthorized(client_for):
    assert_unauthorized(client_for(None).get("/api/v1/keys"))


def test_a_malformed_key_is_unauthorized_without_a_database_query(
    client_for, django_assert_num_queries
):
    secret = keys.generate("mk_")
    broken = secret[:-1] + ("A" if secret[-1] != "A" else "B")  # the checksum no longer matches
    with django_assert_num_queries(0):
        response = client_for(broken).get("/api/v1/keys")
    assert_unauthorized(response, "The API key is malformed.")


@pytest.mark.parametrize("secret", ["", "mk_short", "ak_" + "a" * 38, "mk_" + "a" * 100_000])
def test_other_malformed_keys_are_unauthorized(client_for, secret):
    assert_unauthorized(client_for(secret).get("/api/v1/keys"))


def test_an_unknown_key_is_unauthorized(client_for):
    assert_unauthorized(client_for(keys.generate("mk_")).get("/api/v1/keys"), "Unknown API key.")


def test_a_revoked_key_is_unauthorized(client_for, org):
    key = ApiKeyFactory(organisation=org, scopes=["keys:manage"], revoked_at=clock.now())
    assert_unauthorized(client_for(key).get("/api/v1/keys"), "This API key has been revoked.")


def test_an_expired_key_is_unauthorized(client_for, org):
    expired = clock.now() - timedelta(seconds=1)
    key = ApiKeyFactory(organisation=org, scopes=["keys:manage"], expires_at=expired)
    assert_unauthorized(client_for(key).get("/api/v1/keys"), "This API key has expired.")


def test_a_key_that_expires_later_works(client_for, org):
    key = ApiKeyFactory(
        organisation=org, scopes=["keys:manage"], expires_at=clock.now() + timedelta(days=1)
    )
    assert client_for(key).get("/api/v1/keys").status_code == 200


def test_a_key_of_a_hash_made_under_another_pepper_is_unauthorized(client_for, settings, org):
    key = ApiKeyFactory(organisation=org, scopes=["keys:manage"])
    settings.API_KEY_PEPPER = "another pepper"
    assert_unauthorized(client_for(key).get("/api/v1/keys"))


def test_use_is_recorded_as_last_used_at(api, manager_key):
    assert manager_key.last_used_at is None
    api.get("/api/v1/keys")
    manager_key.refresh_from_db()
    assert manager_key.last_used_at is not None


def test_last_used_at_is_written_at_most_once_a_minute(api, manager_key, monkeypatch):
    # Each process writes when the last use it knows of is a minute old (keys may be cached).
    start = clock.now()
    for seconds, written in ((0, 0), (30, 0), (61, 61)):
        monkeypatch.setattr(
            clock, "now", lambda seconds=seconds: start + timedelta(seconds=seconds)
        )
        api.get("/api/v1/keys")
        manager_key.refresh_from_db()
        assert manager_key.last_used_at == start + timedelta(seconds=written)


def test_a_key_authenticated_request_acts_for_the_key_s_organisation(api, manager_key):
    from rest_framework.test import APIRequestFactory

    from memory_service.accounts.authentication import ApiKeyAuthentication

    request = APIRequestFactory().get("/", HTTP_AUTHORIZATION=f"Bearer {manager_key.secret}")
    user, auth = ApiKeyAuthentication().authenticate(request)
    assert user == manager_key.organisation and user.is_authenticated
    assert auth == manager_key
