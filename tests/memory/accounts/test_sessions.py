from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memory_service.accounts.models import ApiKey
from tests.memory.factories import ApiKeyFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_member_s_session_lists_the_organisation_s_keys(session_client, org, other_org):
    mine = ApiKeyFactory(organisation=org)
    ApiKeyFactory(organisation=other_org)
    response = session_client.get("/api/v1/keys")
    assert response.status_code == 200
    assert [key["id"] for key in response.json()["keys"]] == [mine.pk]


def test_a_member_s_session_with_the_csrf_token_mints_a_key_with_any_scope(
    csrf_session_client, org, client_for
):
    response = csrf_session_client.post(
        "/api/v1/keys", {"name": "first", "scopes": ["keys:manage", "memories:read"]}
    )
    assert response.status_code == 201
    assert ApiKey.objects.get(pk=response.json()["key"]["id"]).organisation == org
    assert client_for(response.json()["secret"]).get("/api/v1/keys").status_code == 200


def test_a_member_s_session_revokes_a_key_of_the_organisation(csrf_session_client, org):
    key = ApiKeyFactory(organisation=org, scopes=["keys:manage", "stats:read"])
    response = csrf_session_client.delete(f"/api/v1/keys/{key.pk}")
    assert response.status_code == 200
    assert response.json()["key"]["revokedAt"] is not None


def test_a_member_s_session_cannot_see_another_organisation_s_key(csrf_session_client, other_org):
    foreign = ApiKeyFactory(organisation=other_org)
    response = csrf_session_client.delete(f"/api/v1/keys/{foreign.pk}")
    assert response.status_code == 404
    assert response.json()["resource"] == "key"


@pytest.mark.parametrize("method", ["post", "delete"])
def test_an_unsafe_session_request_without_the_csrf_token_is_forbidden(session_client, org, method):
    key = ApiKeyFactory(organisation=org)
    path = "/api/v1/keys" if method == "post" else f"/api/v1/keys/{key.pk}"
    response = getattr(session_client, method)(path, {"name": "x"})
    assert response.status_code == 403
    body = response.json()
    assert body["error"] == "Forbidden" and "CSRF" in body["message"]
    assert body["requiredScope"] is None
    key.refresh_from_db()
    assert key.revoked_at is None
    assert ApiKey.objects.count() == 1


def test_a_session_of_a_user_without_a_membership_is_forbidden():
    client = APIClient()
    client.force_login(UserFactory())
    response = client.get("/api/v1/keys")
    assert response.status_code == 403
    assert response.json() == {
        "error": "Forbidden",
        "message": "This user is not a member of any organisation.",
        "requiredScope": None,
    }


def test_no_session_and_no_key_is_unauthorized():
    response = APIClient().get("/api/v1/keys")
    assert response.status_code == 401
    assert response.json()["error"] == "Unauthorized"


def test_session_calls_answer_bootstrap_disabled_when_turned_off(
    csrf_session_client, settings, org
):
    settings.MEMORY_SESSION_KEYS = False
    for response in [
        csrf_session_client.get("/api/v1/keys"),
        csrf_session_client.post("/api/v1/keys", {"name": "x"}),
    ]:
        assert response.status_code == 503
        body = response.json()
        assert body["error"] == "BootstrapDisabled"
        assert set(body) == {"error", "message"}
    assert not ApiKey.objects.exists()


def test_key_calls_still_work_when_sessions_are_turned_off(api, settings):
    settings.MEMORY_SESSION_KEYS = False
    assert api.get("/api/v1/keys").status_code == 200
    assert api.post("/api/v1/keys", {"name": "x"}).status_code == 201


def test_a_key_wins_over_a_session_and_acts_with_its_own_scopes(session_client, client_for, org):
    key = ApiKeyFactory(organisation=org)  # no keys:manage
    session_client.credentials(HTTP_AUTHORIZATION=f"Bearer {key.secret}")
    assert session_client.get("/api/v1/keys").json()["requiredScope"] == "keys:manage"


def test_the_session_cookie_has_its_own_name_so_it_does_not_clash_with_storage(session_client):
    assert "memory_sessionid" in session_client.cookies
