from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from rest_framework.test import APIClient

from storage_service.accounts.models import ApiKey
from tests.storage.factories import ApiKeyFactory, OrganisationFactory


@pytest.fixture(autouse=True)
def fresh_rate_limit_namespace(settings):
    """Give each test its own counters: a shared Redis outlives tests, and addresses repeat."""
    settings.RATE_LIMIT_NAMESPACE = f"storage-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Keep each test's stored bytes in its own directory."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "media" / ".incoming")
    (tmp_path / "media" / ".incoming").mkdir(parents=True)
    return settings.MEDIA_ROOT


@pytest.fixture
def org():
    return OrganisationFactory.create()


@pytest.fixture
def admin_key(org) -> ApiKey:
    return ApiKeyFactory.create(organisation=org, permissions=["admin"])


@pytest.fixture
def client_for() -> Callable[[ApiKey | str | None], APIClient]:
    """Return an APIClient that sends ``key`` (an ApiKey or a raw secret) as its Bearer token."""

    def make(key: ApiKey | str | None) -> APIClient:
        client = APIClient()
        if key is not None:
            secret = key if isinstance(key, str) else key.secret  # type: ignore[attr-defined]
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return client

    return make


@pytest.fixture
def api(client_for, admin_key) -> APIClient:
    return client_for(admin_key)
