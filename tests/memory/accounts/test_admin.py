from __future__ import annotations

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.contrib.messages import get_messages

from memory_service.accounts.models import ApiKey, Membership
from tests.memory.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def test_adding_a_key_shows_the_secret_once_and_stores_only_its_hash(staff_client, org, client_for):
    response = staff_client.post(
        "/admin/memory_accounts/apikey/add/",
        {"organisation": org.pk, "name": "from admin", "scopes": ["keys:manage", "stats:read"]},
    )
    assert response.status_code == 200
    page = response.content.decode()
    [secret] = re.findall(r"mk_[0-9A-Za-z]{38}", page)
    assert page.count(secret) == 1
    key = ApiKey.objects.get(name="from admin")
    assert key.organisation == org and key.scopes == ["keys:manage", "stats:read"]
    assert key.prefix == secret[:7]
    assert secret not in str(ApiKey.objects.filter(pk=key.pk).values().get())
    assert not [m for m in get_messages(response.wsgi_request) if secret in str(m)]
    assert secret not in str(dict(staff_client.session))
    assert not LogEntry.objects.filter(object_repr__contains=secret).exists()
    assert not LogEntry.objects.filter(change_message__contains=secret).exists()
    change_page = staff_client.get(f"/admin/memory_accounts/apikey/{quote(key.pk)}/change/")
    assert change_page.status_code == 200 and secret not in change_page.content.decode()
    assert client_for(secret).get("/api/v1/keys").status_code == 200


def test_the_add_form_offers_the_scopes_as_checkboxes_with_the_defaults_ticked(staff_client):
    page = staff_client.get("/admin/memory_accounts/apikey/add/").content.decode()
    for scope in ["memories:read", "memories:write", "stats:read", "keys:manage"]:
        assert f'value="{scope}"' in page
    assert page.count('type="checkbox" name="scopes"') == 4
    assert page.count("checked") == 3


def test_the_admin_revoke_action_revokes(staff_client, manager_key):
    staff_client.post(
        "/admin/memory_accounts/apikey/",
        {"action": "revoke", "_selected_action": [manager_key.pk]},
    )
    manager_key.refresh_from_db()
    assert manager_key.revoked_at is not None


def test_an_organisation_s_members_are_edited_inline(staff_client, org):
    user = UserFactory()
    response = staff_client.post(
        f"/admin/memory_accounts/organisation/{quote(org.pk)}/change/",
        {
            "name": org.name,
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-user": user.pk,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Membership.objects.get(user=user).organisation == org


def test_admin_lists_organisations_and_keys(staff_client, manager_key):
    assert staff_client.get("/admin/memory_accounts/organisation/").status_code == 200
    assert manager_key.name in staff_client.get("/admin/memory_accounts/apikey/").content.decode()
