from __future__ import annotations

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User

from storage_service.uploads.models import MultipartUpload
from tests.storage.uploads.flows import data_of, started, uploaded

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client


def test_the_admin_lists_uploads_with_parts_received_and_state(staff_client, api, org):
    started(api, data_of(3000), name="half.bin")
    uploaded(api, data_of(2048), name="ready.bin")
    page = staff_client.get("/admin/uploads/multipartupload/").content.decode()
    assert "half.bin" in page and "0 / 3" in page
    assert "ready.bin" in page and "2 / 2" in page
    assert org.name in page and "open" in page


def test_the_admin_shows_an_upload_read_only(staff_client, api):
    upload, _ = uploaded(api, data_of(2048))
    page = staff_client.get(f"/admin/uploads/multipartupload/{quote(upload['uploadId'])}/change/")
    assert page.status_code == 200
    assert upload["uploadId"].encode() in page.content and b'name="_save"' not in page.content
    assert staff_client.get("/admin/uploads/multipartupload/add/").status_code == 403
    delete = f"/admin/uploads/multipartupload/{quote(upload['uploadId'])}/delete/"
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    assert MultipartUpload.objects.filter(pk=upload["uploadId"]).exists()
