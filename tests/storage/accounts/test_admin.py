from __future__ import annotations

import re

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User

from storage_service.accounts.models import ApiKey

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client.force_login(user)
    return client


def test_adding_a_key_in_the_admin_shows_the_secret_once(staff_client, org, client_for):
    response = staff_client.post(
        "/admin/accounts/apikey/add/",
        {"organisation": org.pk, "name": "from admin", "permissions": ["keys:read"]},
    )
    assert response.status_code == 200
    secret = re.search(r"ak_[0-9A-Za-z]{38}", response.content.decode()).group(0)
    key = ApiKey.objects.get(name="from admin")
    assert key.prefix == secret[:7] and secret not in key.secret_hash
    assert client_for(secret).get("/v1/keys").status_code == 200
    change_page = staff_client.get(
        f"/admin/accounts/apikey/{quote(key.pk)}/change/"
    ).content.decode()
    assert secret not in change_page


def test_the_admin_revoke_action_revokes(staff_client, admin_key):
    staff_client.post(
        "/admin/accounts/apikey/",
        {"action": "revoke", "_selected_action": [admin_key.pk]},
    )
    admin_key.refresh_from_db()
    assert admin_key.revoked_at is not None


def test_admin_lists_organisations_and_keys(staff_client, admin_key):
    assert staff_client.get("/admin/accounts/organisation/").status_code == 200
    assert admin_key.name in staff_client.get("/admin/accounts/apikey/").content.decode()
