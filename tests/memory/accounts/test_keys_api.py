from __future__ import annotations

import re

import pytest
from django.conf import settings

from memory_service import clock
from memory_service.accounts.models import ApiKey
from shared import keys
from tests.memory.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

RECORD_FIELDS = {"id", "name", "prefix", "scopes", "createdAt", "lastUsedAt", "revokedAt"}
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def issues(response) -> list[dict]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["error"] == "InvalidRequest" and body["message"]
    return body["issues"]


def forbidden(response) -> dict:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["error"] == "Forbidden"
    assert set(body) == {"error", "message", "requiredScope"}
    return body


# Listing


def test_listing_shows_the_organisation_s_keys_newest_first(api, org, manager_key, other_org):
    newer = ApiKeyFactory(organisation=org)
    ApiKeyFactory(organisation=other_org)
    body = api.get("/api/v1/keys").json()
    assert [key["id"] for key in body["keys"]] == [newer.pk, manager_key.pk]
    record = body["keys"][1]
    assert set(record) == RECORD_FIELDS
    assert record["prefix"] == manager_key.secret[:7]
    assert record["scopes"] == ["memories:read", "memories:write", "stats:read", "keys:manage"]
    assert ISO.match(record["createdAt"]) and ISO.match(record["lastUsedAt"])
    assert record["revokedAt"] is None


def test_listing_answers_with_a_trailing_slash_too(api):
    assert api.get("/api/v1/keys/").status_code == 200


# Creating


def test_creating_a_key_answers_201_with_the_record_and_the_secret_once(api, org, client_for):
    response = api.post("/api/v1/keys", {"name": "agent"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"key", "secret"}
    assert set(body["key"]) == RECORD_FIELDS
    assert body["key"]["name"] == "agent"
    assert body["key"]["scopes"] == ["memories:read", "memories:write", "stats:read"]
    assert body["key"]["lastUsedAt"] is None and body["key"]["revokedAt"] is None
    secret = body["secret"]
    assert keys.is_well_formed(secret, "mk_")
    assert body["key"]["prefix"] == secret[:7]
    stored = ApiKey.objects.get(pk=body["key"]["id"])
    assert stored.organisation == org
    assert stored.secret_hash == keys.secret_hash(secret, settings.API_KEY_PEPPER)
    assert secret not in str(stored.__dict__)
    listed = api.get("/api/v1/keys").json()
    assert secret not in str(listed)
    # The new key has no keys:manage, so it authenticates and is refused by scope, not by key.
    assert client_for(secret).get("/api/v1/keys").status_code == 403


def test_creating_a_key_with_chosen_scopes_keeps_them_once_each(api):
    response = api.post(
        "/api/v1/keys", {"name": "ops", "scopes": ["keys:manage", "stats:read", "keys:manage"]}
    )
    assert response.status_code == 201
    assert response.json()["key"]["scopes"] == ["keys:manage", "stats:read"]


@pytest.mark.parametrize("name", ["a", "n" * 100, "Agent — prod ✓", " padded "])
def test_a_name_of_1_to_100_printable_characters_is_accepted(api, name):
    response = api.post("/api/v1/keys", {"name": name})
    assert response.status_code == 201
    assert response.json()["key"]["name"] == name


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ({}, "name"),
        ({"name": None}, "name"),
        ({"name": 123}, "name"),
        ({"name": True}, "name"),
        ({"name": ["x"]}, "name"),
        ({"name": ""}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "tab\there"}, "name"),
        ({"name": "n" * 101}, "name"),
        ({"name": "ok", "scopes": "memories:read"}, "scopes"),
        ({"name": "ok", "scopes": []}, "scopes"),
        ({"name": "ok", "scopes": None}, "scopes"),
        ({"name": "ok", "scopes": ["memories:read", "root"]}, "scopes[1]"),
        ({"name": "ok", "scopes": [{"scope": "memories:read"}]}, "scopes[0]"),
        ({"name": "ok", "expiresAt": "2030-01-01T00:00:00Z"}, "expiresAt"),
        ({"name": "ok", "organisation": "org_other"}, "organisation"),
    ],
)
def test_an_invalid_body_is_invalid_request_at_the_field_s_path(api, payload, path):
    assert [item["path"] for item in issues(api.post("/api/v1/keys", payload))] == [path]
    assert ApiKey.objects.count() == 1  # only the caller's own key


def test_every_issue_of_a_body_is_reported_at_once(api):
    found = issues(api.post("/api/v1/keys", {"name": 5, "scopes": ["nope"], "extra": 1}))
    assert {item["path"] for item in found} == {"name", "scopes[0]", "extra"}


def test_a_one_megabyte_name_is_invalid_request_and_not_echoed(api):
    response = api.post("/api/v1/keys", {"name": "n" * 1_000_000})
    assert issues(response) == [
        {"path": "name", "message": "Ensure this field has no more than 100 characters."}
    ]
    assert len(response.content) < 1000


def test_an_unknown_scope_is_named_with_the_valid_ones(api):
    [found] = issues(api.post("/api/v1/keys", {"name": "x", "scopes": ["memories:delete"]}))
    assert found == {
        "path": "scopes[0]",
        "message": "Unknown scope; use one of memories:read, memories:write, stats:read, "
        "keys:manage.",
    }


# Scopes


def test_a_key_without_keys_manage_is_forbidden_on_every_key_endpoint(client_for, org):
    key = ApiKeyFactory(organisation=org)  # the default three scopes
    client = client_for(key)
    for response in [
        client.get("/api/v1/keys"),
        client.post("/api/v1/keys", {"name": "x"}),
        client.delete(f"/api/v1/keys/{key.pk}"),
    ]:
        body = forbidden(response)
        assert body["requiredScope"] == "keys:manage"
        assert "keys:manage" in body["message"]
    key.refresh_from_db()
    assert key.revoked_at is None


def test_a_key_cannot_grant_a_scope_it_lacks(client_for, org):
    manager = ApiKeyFactory(organisation=org, scopes=["keys:manage", "memories:read"])
    response = client_for(manager).post(
        "/api/v1/keys", {"name": "wider", "scopes": ["memories:read", "stats:read"]}
    )
    body = forbidden(response)
    assert body["requiredScope"] == "stats:read"
    assert "stats:read" in body["message"]
    assert not ApiKey.objects.filter(name="wider").exists()


def test_the_default_scopes_are_an_escalation_for_a_key_that_lacks_them(client_for, org):
    manager = ApiKeyFactory(organisation=org, scopes=["keys:manage", "memories:read"])
    body = forbidden(client_for(manager).post("/api/v1/keys", {"name": "default"}))
    assert body["requiredScope"] == "memories:write"


def test_a_key_may_grant_the_scopes_it_holds(client_for, org):
    manager = ApiKeyFactory(organisation=org, scopes=["keys:manage", "memories:read"])
    response = client_for(manager).post(
        "/api/v1/keys", {"name": "sibling", "scopes": ["memories:read", "keys:manage"]}
    )
    assert response.status_code == 201


# Revoking


def test_revoking_a_key_answers_its_record_and_it_stops_authenticating(api, org, client_for):
    target = ApiKeyFactory(organisation=org, scopes=["keys:manage"])
    response = api.delete(f"/api/v1/keys/{target.pk}")
    assert response.status_code == 200
    record = response.json()["key"]
    assert set(record) == RECORD_FIELDS
    assert record["id"] == target.pk and ISO.match(record["revokedAt"])
    assert client_for(target).get("/api/v1/keys").status_code == 401


def test_revoking_a_revoked_key_answers_the_same_record(api, org):
    target = ApiKeyFactory(organisation=org)
    first = api.delete(f"/api/v1/keys/{target.pk}").json()
    second = api.delete(f"/api/v1/keys/{target.pk}")
    assert second.status_code == 200
    assert second.json() == first


def test_revoking_an_unknown_key_is_not_found(api):
    response = api.delete("/api/v1/keys/key_doesnotexist")
    assert response.status_code == 404
    assert response.json() == {
        "error": "NotFound",
        "message": "No key key_doesnotexist.",
        "resource": "key",
        "id": "key_doesnotexist",
    }


def test_another_organisation_s_key_answers_exactly_like_a_missing_one(api, other_org):
    foreign = ApiKeyFactory(organisation=other_org)
    response = api.delete(f"/api/v1/keys/{foreign.pk}")
    assert response.status_code == 404
    assert response.json() == {
        "error": "NotFound",
        "message": f"No key {foreign.pk}.",
        "resource": "key",
        "id": foreign.pk,
    }
    foreign.refresh_from_db()
    assert foreign.revoked_at is None


def test_a_key_cannot_revoke_a_key_holding_a_scope_it_lacks(client_for, org):
    manager = ApiKeyFactory(organisation=org, scopes=["keys:manage"])
    wider = ApiKeyFactory(organisation=org, scopes=["memories:write", "keys:manage"])
    body = forbidden(client_for(manager).delete(f"/api/v1/keys/{wider.pk}"))
    assert body["requiredScope"] == "memories:write"
    wider.refresh_from_db()
    assert wider.revoked_at is None


def test_a_key_can_revoke_itself_which_ends_a_rotation(api, manager_key, client_for):
    new_secret = api.post("/api/v1/keys", {"name": "next", "scopes": ["keys:manage"]}).json()
    response = api.delete(f"/api/v1/keys/{manager_key.pk}")
    assert response.status_code == 200
    assert api.get("/api/v1/keys").status_code == 401
    assert client_for(new_secret["secret"]).get("/api/v1/keys").status_code == 200


def test_revoking_keeps_the_first_revocation_time(api, org):
    earlier = clock.now().replace(microsecond=0)
    target = ApiKeyFactory(organisation=org, revoked_at=earlier)
    record = api.delete(f"/api/v1/keys/{target.pk}").json()["key"]
    assert record["revokedAt"] == clock.iso(earlier)


# Methods


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("patch", "/api/v1/keys", "GET, POST, HEAD"),
        ("put", "/api/v1/keys/", "GET, POST, HEAD"),
        ("get", "/api/v1/keys/key_x", "DELETE"),
        ("options", "/api/v1/keys", "GET, POST, HEAD"),
    ],
)
def test_another_method_on_a_key_route_is_invalid_request_with_allow(api, method, path, allow):
    response = getattr(api, method)(path)
    [found] = issues(response)
    assert found["path"] == "method"
    assert response["Allow"] == allow
