from __future__ import annotations

import json
import multiprocessing
from datetime import timedelta

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from storage_service import clock
from storage_service.accounts.models import ApiKey
from storage_service.accounts.permissions import ALL
from tests.storage.factories import ApiKeyFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


def error_of(response, status):
    assert response.status_code == status, response.content
    body = response.json()
    assert body["success"] is False
    return body["error"]


# --- GET /keys ------------------------------------------------------------------------------


def test_list_shows_only_the_callers_organisation_without_secrets(api, admin_key):
    ApiKeyFactory()  # another organisation's key
    sibling = ApiKeyFactory(organisation=admin_key.organisation, permissions=["files:read"])
    body = api.get("/v1/keys").json()
    assert body["success"] is True and body["error"] is None
    keys = body["data"]["keys"]
    assert {k["id"] for k in keys} == {admin_key.pk, sibling.pk}
    listed = next(k for k in keys if k["id"] == sibling.pk)
    assert set(listed) == {
        "id",
        "name",
        "prefix",
        "permissions",
        "createdAt",
        "expiresAt",
        "lastUsedAt",
        "isActive",
    }
    assert listed["prefix"] == sibling.secret[:7]
    assert listed["permissions"] == ["files:read"]
    assert listed["isActive"] is True


def test_list_is_paginated(api, admin_key):
    for _ in range(4):
        ApiKeyFactory(organisation=admin_key.organisation)
    data = api.get("/v1/keys", {"limit": 2, "page": 2}).json()["data"]
    assert len(data["keys"]) == 2
    assert data["pagination"] == {
        "page": 2,
        "limit": 2,
        "total": 5,
        "totalPages": 3,
        "hasNext": True,
        "hasPrev": True,
    }


def test_list_with_bad_paging_names_each_parameter(api):
    error = error_of(api.get("/v1/keys", {"limit": 500, "page": "x"}), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert set(error["details"]) == {"limit", "page"}


def test_revoked_and_expired_keys_are_listed_as_inactive(api, admin_key):
    org = admin_key.organisation
    revoked = ApiKeyFactory(organisation=org, revoked_at=clock.now())
    expired = ApiKeyFactory(organisation=org, expires_at=clock.now() - timedelta(days=1))
    keys = {k["id"]: k for k in api.get("/v1/keys").json()["data"]["keys"]}
    assert keys[revoked.pk]["isActive"] is False
    assert keys[expired.pk]["isActive"] is False


# --- POST /keys -----------------------------------------------------------------------------


def test_created_key_returns_its_secret_once_and_works(api, client_for):
    body = api.post("/v1/keys", {"name": "CI deploy", "permissions": ["keys:read"]}).json()
    key = body["data"]["key"]
    assert key["fullKey"].startswith("ak_")
    assert key["prefix"] == key["fullKey"][:7]
    assert key["permissions"] == ["keys:read"]
    assert key["expiresAt"] is None and key["lastUsedAt"] is None and key["isActive"] is True
    assert client_for(key["fullKey"]).get("/v1/keys").status_code == 200
    listed = api.get("/v1/keys").json()["data"]["keys"]
    assert all("fullKey" not in k for k in listed)


def test_the_secret_is_stored_nowhere(api):
    secret = api.post("/v1/keys", {"name": "n"}).json()["data"]["key"]["fullKey"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apikey")
        rows = cursor.fetchall()
    assert rows and not any(secret in str(value) for row in rows for value in row)


def test_permissions_default_to_the_creating_keys_own(client_for, org):
    creator = ApiKeyFactory(organisation=org, permissions=["keys:write", "files:read"])
    key = client_for(creator).post("/v1/keys", {"name": "child"}).json()["data"]["key"]
    assert key["permissions"] == ["keys:write", "files:read"]


def test_an_admin_key_creates_keys_with_every_permission(api):
    key = api.post("/v1/keys", {"name": "all"}).json()["data"]["key"]
    assert key["permissions"] == ["admin"]


def test_duplicate_permissions_are_kept_once(api):
    body = {"name": "n", "permissions": ["files:read", "files:read"]}
    assert api.post("/v1/keys", body).json()["data"]["key"]["permissions"] == ["files:read"]


def test_key_with_a_future_expiry_is_created(api):
    expires = (clock.now() + timedelta(days=30)).isoformat()
    key = api.post("/v1/keys", {"name": "n", "expiresAt": expires}).json()["data"]["key"]
    assert key["expiresAt"].startswith(expires[:19])


@pytest.mark.parametrize(
    "name",
    ["", "   ", "bad\nname", "tab\there", "nul\x00", "x" * 101, 42, None, ["a"], {"a": 1}],
)
def test_invalid_names_are_invalid_key_name(api, name):
    error = error_of(api.post("/v1/keys", {"name": name}), 400)
    assert error["code"] == "INVALID_KEY_NAME"
    assert set(error["details"]) == {"name", "reason"}
    assert error["details"]["reason"]


def test_missing_name_is_invalid_key_name(api):
    error = error_of(api.post("/v1/keys", {"permissions": ["files:read"]}), 400)
    assert error["code"] == "INVALID_KEY_NAME"


def test_unicode_names_of_100_characters_are_fine(api):
    name = "Ünïcødé ключ 鍵 " + "é" * 84
    assert api.post("/v1/keys", {"name": name}).json()["data"]["key"]["name"] == name


def test_a_megabyte_name_is_refused_cleanly_and_shown_to_1000_characters(api):
    error = error_of(api.post("/v1/keys", {"name": "x" * 1_000_000}), 400)
    assert error["code"] == "INVALID_KEY_NAME"
    assert error["details"]["name"] == "x" * 1000


@pytest.mark.parametrize(
    "name", ["y" * 101, "z" * 999 + "\n", "\u00e9" * 1000, 42, None, ["a"], {"a": 1}, ""]
)
def test_the_rejected_name_is_echoed_whole(api, name):
    error = error_of(api.post("/v1/keys", {"name": name}), 400)
    assert error["code"] == "INVALID_KEY_NAME"
    assert error["details"]["name"] == name


def test_a_long_non_text_name_is_echoed_as_its_json_cut_to_1000_characters(api):
    error = error_of(api.post("/v1/keys", {"name": list(range(1000))}), 400)
    assert error["details"]["name"] == json.dumps(list(range(1000)))[:1000]


def test_unknown_permissions_are_invalid_permissions(api):
    error = error_of(
        api.post("/v1/keys", {"name": "n", "permissions": ["files:read", "root"]}), 400
    )
    assert error["code"] == "INVALID_PERMISSIONS"
    assert error["details"] == {"invalidPermissions": ["root"], "validPermissions": ALL}


@pytest.mark.parametrize("permissions", ["files:read", [], [1], {"files:read": True}])
def test_malformed_permissions_are_invalid_permissions(api, permissions):
    error = error_of(api.post("/v1/keys", {"name": "n", "permissions": permissions}), 400)
    assert error["code"] == "INVALID_PERMISSIONS"
    assert error["details"]["validPermissions"] == ALL


@pytest.mark.parametrize(
    "expires_at", ["2001-01-01T00:00:00Z", "tomorrow", "2030-13-45T00:00:00", 5]
)
def test_past_or_unreadable_expiry_is_invalid_expiration_date(api, expires_at):
    error = error_of(api.post("/v1/keys", {"name": "n", "expiresAt": expires_at}), 400)
    assert error["code"] == "INVALID_EXPIRATION_DATE"
    assert error["details"]["expiresAt"] == expires_at
    assert error["details"]["currentTime"].endswith("Z")


def test_a_key_cannot_grant_a_permission_it_lacks(client_for, org):
    creator = ApiKeyFactory(organisation=org, permissions=["keys:write", "files:read"])
    body = {"name": "n", "permissions": ["files:read", "billing:read"]}
    error = error_of(client_for(creator).post("/v1/keys", body), 403)
    assert error["code"] == "ACCESS_DENIED"
    assert error["details"]["deniedPermissions"] == ["billing:read"]
    assert ApiKey.objects.filter(organisation=org).count() == 1


def test_a_key_without_admin_cannot_grant_admin(client_for, org):
    non_admin = [p for p in ALL if p != "admin"]
    creator = ApiKeyFactory(organisation=org, permissions=non_admin)
    error = error_of(
        client_for(creator).post("/v1/keys", {"name": "n", "permissions": ["admin"]}), 403
    )
    assert error["code"] == "ACCESS_DENIED"


def test_creating_past_max_keys_is_key_limit_exceeded(api, admin_key, settings):
    settings.MAX_KEYS = 3
    ApiKeyFactory(organisation=admin_key.organisation)
    ApiKeyFactory(organisation=admin_key.organisation, revoked_at=clock.now())  # not counted
    assert api.post("/v1/keys", {"name": "third"}).status_code == 200
    error = error_of(api.post("/v1/keys", {"name": "fourth"}), 400)
    assert error["code"] == "KEY_LIMIT_EXCEEDED"
    assert error["details"] == {"currentKeys": 3, "maxKeys": 3}


def test_unknown_fields_are_invalid_parameters(api):
    error = error_of(api.post("/v1/keys", {"name": "n", "isAdmin": True}), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert error["details"] == {"isAdmin": "Unknown field."}


@pytest.mark.parametrize("body", ["[1, 2]", '"a string"', "null", "{not json", ""])
def test_bodies_that_are_not_a_json_object_are_invalid_parameters(api, body):
    response = api.generic("POST", "/v1/keys", body, content_type="application/json")
    assert error_of(response, 400)["code"] in {"INVALID_PARAMETERS", "INVALID_KEY_NAME"}


def test_wrong_content_type_is_invalid_parameters(api):
    response = api.generic("POST", "/v1/keys", "name=n", content_type="text/plain")
    assert error_of(response, 400)["code"] == "INVALID_PARAMETERS"


# --- DELETE /keys/{keyId} -------------------------------------------------------------------


def test_revoking_a_key_stops_it_at_once(api, admin_key, client_for):
    victim = ApiKeyFactory(organisation=admin_key.organisation, permissions=["files:read"])
    data = api.delete(f"/v1/keys/{victim.pk}").json()["data"]
    assert data["keyId"] == victim.pk and data["message"] and data["revokedAt"].endswith("Z")
    error = error_of(client_for(victim).get("/v1/keys"), 401)
    assert error["details"]["keyId"] == victim.pk
    victim.refresh_from_db()
    assert victim.revoked_at is not None


def test_revoking_an_unknown_key_is_key_not_found(api):
    error = error_of(api.delete("/v1/keys/key_doesnotexist"), 404)
    assert error["code"] == "KEY_NOT_FOUND"


def test_another_organisations_key_answers_like_a_missing_one(api):
    foreign = ApiKeyFactory(organisation=OrganisationFactory())
    missing = error_of(api.delete("/v1/keys/key_doesnotexist"), 404)
    error = error_of(api.delete(f"/v1/keys/{foreign.pk}"), 404)
    assert error["code"] == missing["code"] and error["message"] == missing["message"]
    foreign.refresh_from_db()
    assert foreign.revoked_at is None


def test_revoking_twice_is_key_already_revoked(api, admin_key):
    victim = ApiKeyFactory(organisation=admin_key.organisation)
    revoked_at = api.delete(f"/v1/keys/{victim.pk}").json()["data"]["revokedAt"]
    error = error_of(api.delete(f"/v1/keys/{victim.pk}"), 400)
    assert error["code"] == "KEY_ALREADY_REVOKED"
    assert error["details"] == {"keyId": victim.pk, "revokedAt": revoked_at}


def test_a_key_cannot_revoke_itself(api, admin_key):
    error = error_of(api.delete(f"/v1/keys/{admin_key.pk}"), 400)
    assert error["code"] == "CANNOT_REVOKE_OWN_KEY"
    assert error["details"] == {"keyId": admin_key.pk}


def test_a_key_cannot_revoke_a_stronger_key(client_for, org):
    weak = ApiKeyFactory(organisation=org, permissions=["keys:write"])
    strong = ApiKeyFactory(organisation=org, permissions=["admin"])
    error = error_of(client_for(weak).delete(f"/v1/keys/{strong.pk}"), 403)
    assert error["code"] == "ACCESS_DENIED"
    strong.refresh_from_db()
    assert strong.revoked_at is None


# --- DELETE /keys/bulk ----------------------------------------------------------------------


def test_bulk_revocation_handles_each_id_on_its_own(api, admin_key):
    org = admin_key.organisation
    first, second = ApiKeyFactory(organisation=org), ApiKeyFactory(organisation=org)
    already = ApiKeyFactory(organisation=org, revoked_at=clock.now())
    foreign = ApiKeyFactory()
    ids = [first.pk, second.pk, already.pk, foreign.pk, admin_key.pk, "key_missing", first.pk]
    data = api.delete("/v1/keys/bulk", {"keyIds": ids}).json()["data"]
    assert data["revoked"] == [first.pk, second.pk]
    assert [(f["keyId"], f["code"]) for f in data["failed"]] == [
        (already.pk, "KEY_ALREADY_REVOKED"),
        (foreign.pk, "KEY_NOT_FOUND"),
        (admin_key.pk, "CANNOT_REVOKE_OWN_KEY"),
        ("key_missing", "KEY_NOT_FOUND"),
    ]
    assert all(f["reason"] for f in data["failed"])
    assert data["revokedAt"].endswith("Z")
    assert ApiKey.objects.filter(pk__in=[first.pk, second.pk], revoked_at__isnull=True).count() == 0


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"keyIds": []},
        {"keyIds": "key_x"},
        {"keyIds": [1]},
        {"keyIds": ["k"] * 101},
        {"keyIds": ["k"], "force": True},
    ],
)
def test_bulk_revocation_with_a_bad_body_is_invalid_parameters(api, body):
    assert error_of(api.delete("/v1/keys/bulk", body), 400)["code"] == "INVALID_PARAMETERS"


def _create_keys(secret: str, count: int, results) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    results.put([client.post("/v1/keys", {"name": "race"}).status_code for _ in range(count)])
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_concurrent_creations_never_pass_max_keys(admin_key, settings):
    settings.MAX_KEYS = 5
    connections.close_all()
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    workers = [
        context.Process(target=_create_keys, args=(admin_key.secret, 3, results)) for _ in range(4)
    ]
    for worker in workers:
        worker.start()
    statuses = [status for _ in workers for status in results.get(timeout=60)]
    for worker in workers:
        worker.join(timeout=60)
    assert statuses.count(200) == 4
    assert statuses.count(400) == 8
    assert ApiKey.objects.filter(organisation=admin_key.organisation).count() == 5
