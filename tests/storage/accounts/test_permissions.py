from __future__ import annotations

import pytest

from storage_service.accounts.permissions import ALL
from tests.storage.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("method", "path", "needed"),
    [
        ("get", "/v1/keys", "keys:read"),
        ("post", "/v1/keys", "keys:write"),
        ("delete", "/v1/keys/key_whatever", "keys:write"),
        ("delete", "/v1/keys/bulk", "keys:write"),
        ("get", "/v1/billing", "billing:read"),
    ],
)
def test_key_without_the_needed_permission_is_access_denied(client_for, org, method, path, needed):
    everything_else = [p for p in ALL if p not in {needed, "admin"}]
    key = ApiKeyFactory(organisation=org, permissions=everything_else)
    response = getattr(client_for(key), method)(path, {}, format="json")
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "ACCESS_DENIED"
    assert error["details"]["requiredPermission"] == needed
    assert needed in error["message"]


@pytest.mark.parametrize(
    ("path", "needed"), [("/v1/keys", "keys:read"), ("/v1/billing", "billing:read")]
)
def test_key_with_exactly_the_needed_permission_is_let_in(client_for, org, path, needed):
    key = ApiKeyFactory(organisation=org, permissions=[needed])
    assert client_for(key).get(path).status_code == 200


def test_admin_permission_grants_everything(api):
    assert api.get("/v1/keys").status_code == 200
    assert api.get("/v1/billing").status_code == 200
