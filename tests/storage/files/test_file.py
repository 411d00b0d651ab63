from __future__ import annotations

import pytest
from django.contrib.admin.utils import quote
from django.core import signing
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile

from storage_service.accounts.models import Organisation
from storage_service.files.serializers import DOWNLOAD_SALT
from tests.storage.factories import ApiKeyFactory, FileFactory
from tests.storage.files.downloading import DATA, body

pytestmark = pytest.mark.django_db


def test_get_answers_the_file_record(api, stored):
    response = api.get(f"/v1/files/{stored['id']}")
    assert response.status_code == 200
    file = response.json()["data"]["file"]
    assert {k: v for k, v in file.items() if k != "url"} == {
        k: v for k, v in stored.items() if k != "url"
    }


def test_an_unknown_file_is_file_not_found(api):
    response = api.get("/v1/files/file_missing")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": "FILE_NOT_FOUND",
        "message": "No file with this id.",
        "details": {"fileId": "file_missing"},
    }


def test_another_organisations_file_answers_like_a_missing_one(api):
    foreign = FileFactory()
    response = api.get(f"/v1/files/{foreign.pk}")
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "No file with this id."
    assert api.delete(f"/v1/files/{foreign.pk}").status_code == 404


def test_delete_frees_the_space_at_once_and_removes_the_bytes(
    api, admin_key, stored, django_capture_on_commit_callbacks
):
    org = Organisation.objects.get(pk=admin_key.organisation_id)
    assert org.storage_used == len(DATA)
    with django_capture_on_commit_callbacks(execute=True):
        data = api.delete(f"/v1/files/{stored['id']}").json()["data"]
    assert data["fileId"] == stored["id"] and data["freedSpace"] == len(DATA)
    assert data["message"] and data["deletedAt"].endswith("Z")
    org.refresh_from_db()
    assert (org.storage_used, org.file_count) == (0, 0)
    assert not storages["default"].exists(f"{org.pk}/{stored['id']}")
    assert api.get(f"/v1/files/{stored['id']}").status_code == 404
    assert api.delete(f"/v1/files/{stored['id']}").json()["error"]["code"] == "FILE_NOT_FOUND"


def test_reading_needs_files_read(client_for, org):
    key = ApiKeyFactory(organisation=org, permissions=["files:write"])
    response = client_for(key).get("/v1/files")
    assert response.json()["error"]["details"]["requiredPermission"] == "files:read"


def test_download_streams_with_type_length_and_a_safe_disposition(client_for, api, stored):
    response = client_for(None).get(stored["url"])  # the signed link is the credential
    assert response.status_code == 200
    assert body(response) == DATA
    assert response["Content-Type"] == "application/octet-stream"
    assert response["Content-Length"] == str(len(DATA))
    assert response["Content-Disposition"] == 'attachment; filename="bytes.bin"'
    assert response["Accept-Ranges"] == "bytes"


def test_download_of_a_unicode_name_uses_rfc_5987(api):
    url = api.post(
        "/v1/files/upload",
        {"file": SimpleUploadedFile('報告 "final";.txt', b"x")},
        format="multipart",
    ).json()["data"]["file"]["url"]
    disposition = api.get(url)["Content-Disposition"]
    assert disposition.startswith("attachment; filename*=utf-8''")
    assert "\n" not in disposition and '"final"' not in disposition


@pytest.mark.parametrize(
    ("header", "start", "end"),
    [
        ("bytes=0-99", 0, 99),
        ("bytes=10000-", 10000, 10239),
        ("bytes=-40", 10200, 10239),
        ("bytes=10200-99999", 10200, 10239),
    ],
)
def test_download_honours_a_byte_range(api, stored, header, start, end):
    response = api.get(stored["url"], HTTP_RANGE=header)
    assert response.status_code == 206
    assert body(response) == DATA[start : end + 1]
    assert response["Content-Range"] == f"bytes {start}-{end}/{len(DATA)}"
    assert response["Content-Length"] == str(end - start + 1)


def test_a_range_past_the_end_is_416(api, stored):
    response = api.get(stored["url"], HTTP_RANGE="bytes=20000-")
    assert response.status_code == 416
    assert response["Content-Range"] == f"bytes */{len(DATA)}"


def test_a_tampered_or_expired_link_is_access_denied(api, stored, settings):
    response = api.get(stored["url"] + "x")
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "ACCESS_DENIED"
    settings.DOWNLOAD_URL_TTL = -1
    assert api.get(stored["url"]).status_code == 403


def test_the_link_of_a_deleted_file_is_file_not_found(api, stored):
    api.delete(f"/v1/files/{stored['id']}")
    assert api.get(stored["url"]).json()["error"]["code"] == "FILE_NOT_FOUND"


def test_a_link_cannot_be_forged_for_another_file(api, stored):
    token = signing.dumps(["org_other", stored["id"]], salt="wrong salt")
    assert api.get(f"/v1/downloads/{token}").status_code == 403
    forged = signing.dumps(["org_other", stored["id"]], salt=DOWNLOAD_SALT)  # needs SECRET_KEY
    assert api.get(f"/v1/downloads/{forged}").status_code == 404


def test_the_admin_lists_files_with_a_download_link(client, stored):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("root", "r@example.com", "pw"))
    page = client.get("/admin/files/file/").content.decode()
    assert "bytes.bin" in page and "/v1/downloads/" in page
    assert client.get(f"/admin/files/file/{quote(stored['id'])}/change/").status_code == 200
