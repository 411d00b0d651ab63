from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.middleware.csrf import get_token
from django.test import RequestFactory
from rest_framework.test import APIClient

from memory_service.accounts.models import ApiKey, Membership, Organisation
from memory_service.accounts.scopes import ALL_SCOPES
from tests.clients import bearer_client
from tests.memory.factories import ApiKeyFactory, MembershipFactory, OrganisationFactory


@pytest.fixture
def org() -> Organisation:
    return OrganisationFactory.create()


@pytest.fixture
def other_org() -> Organisation:
    return OrganisationFactory.create()


@pytest.fixture
def manager_key(org) -> ApiKey:
    """A key of ``org`` holding every scope, keys:manage included."""
    return ApiKeyFactory.create(organisation=org, scopes=list(ALL_SCOPES))


@pytest.fixture
def client_for() -> Callable[[ApiKey | str | None], APIClient]:
    """Return an APIClient that sends ``key`` (an ApiKey or a raw secret) as its Bearer token."""
    return bearer_client


@pytest.fixture
def api(client_for, manager_key) -> APIClient:
    return client_for(manager_key)


@pytest.fixture
def member(org) -> Membership:
    return MembershipFactory.create(organisation=org)


@pytest.fixture
def session_client(member) -> APIClient:
    """A member's admin session that enforces CSRF, as a browser's would, and has no token."""
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(member.user)
    return client


@pytest.fixture
def csrf_session_client(session_client) -> APIClient:
    """The member's session with a CSRF cookie and the matching X-CSRFToken header."""
    request = RequestFactory().get("/")
    token = get_token(request)
    session_client.cookies[settings.CSRF_COOKIE_NAME] = request.META["CSRF_COOKIE"]
    session_client.credentials(HTTP_X_CSRFTOKEN=token)
    return session_client
