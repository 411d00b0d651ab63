from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile

from storage_service.billing import counting
from storage_service.billing.models import RequestRollup

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def test_the_admin_shows_request_rollups_and_the_storage_series_read_only(staff_client, api, org):
    api.post(
        "/v1/files/upload", {"file": SimpleUploadedFile("a.txt", b"x" * 10)}, format="multipart"
    )
    counting.flush(org.pk)
    page = staff_client.get("/admin/billing/requestrollup/").content.decode()
    assert "POST /files/upload" in page and org.name in page
    series = staff_client.get("/admin/billing/storagechange/").content.decode()
    assert "document" in series and org.name in series
    row = RequestRollup.objects.get(organisation=org)
    assert staff_client.get("/admin/billing/requestrollup/add/").status_code == 403
    delete = f"/admin/billing/requestrollup/{row.pk}/delete/"
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert RequestRollup.objects.filter(pk=row.pk).exists()
