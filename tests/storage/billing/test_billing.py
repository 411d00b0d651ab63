from __future__ import annotations

import pytest

from tests.storage.factories import ApiKeyFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


def test_billing_reports_the_plan_and_requests_this_hour(client_for, settings):
    settings.MAX_KEYS = 12
    key = ApiKeyFactory(organisation=OrganisationFactory(plan="studio"))
    client = client_for(key)
    client.get("/v1/keys")
    data = client.get("/v1/billing").json()["data"]
    assert data["plan"] == {
        "name": "studio",
        "requestsPerHour": 50000,
        "storageLimit": 1024**4,
        "maxKeys": 12,
    }
    assert data["currentUsage"] == {
        "storage": 0,
        "files": 0,
        "requestsThisHour": 2,
        "trash": 0,
        "pendingUploads": 0,
    }


def test_billing_reports_live_storage_and_files(api, admin_key):
    from django.core.files.uploadedfile import SimpleUploadedFile

    for name in ["a.txt", "b.txt"]:
        api.post(
            "/v1/files/upload", {"file": SimpleUploadedFile(name, b"12345")}, format="multipart"
        )
    usage = api.get("/v1/billing").json()["data"]["currentUsage"]
    assert (usage["storage"], usage["files"]) == (10, 2)


def test_another_organisations_requests_are_not_counted(client_for):
    mine, theirs = ApiKeyFactory(), ApiKeyFactory()
    for _ in range(3):
        client_for(theirs).get("/v1/keys")
    data = client_for(mine).get("/v1/billing").json()["data"]
    assert data["currentUsage"]["requestsThisHour"] == 1
