from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.storage import storages
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from tests.storage.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db


def png_bytes(width: int = 3, height: int = 2) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, "PNG")
    return buffer.getvalue()


def upload(client, name: str, data: bytes, **fields):
    return client.post(
        "/v1/files/upload", {"file": SimpleUploadedFile(name, data), **fields}, format="multipart"
    )


def downloaded(client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def test_upload_answers_the_file_record_and_the_bytes_round_trip(api):
    data = b"hello, world\n" * 1000
    response = upload(api, "notes.txt", data)
    assert response.status_code == 200, response.content
    file = response.json()["data"]["file"]
    assert set(file) == {
        "id",
        "name",
        "size",
        "type",
        "url",
        "folderId",
        "uploadedAt",
        "updatedAt",
        "metadata",
    }
    assert file["id"].startswith("file_")
    assert (file["name"], file["size"], file["type"]) == ("notes.txt", len(data), "text/plain")
    assert file["folderId"] is None
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert file["url"].startswith("http://testserver/v1/downloads/")
    assert downloaded(api, file["url"]) == data


def test_type_is_sniffed_from_the_content_not_the_name(api):
    file = upload(api, "photo.txt", png_bytes(7, 5)).json()["data"]["file"]
    assert file["type"] == "image/png"
    assert file["metadata"]["width"] == 7 and file["metadata"]["height"] == 5


def test_the_extension_is_the_fallback_when_content_says_nothing(api):
    assert upload(api, "data.csv", b"a,b\n1,2\n").json()["data"]["file"]["type"] == "text/csv"


def test_a_zero_byte_file_is_stored(api):
    file = upload(api, "empty.bin", b"").json()["data"]["file"]
    assert file["size"] == 0
    assert downloaded(api, file["url"]) == b""


@pytest.mark.parametrize(
    ("sent", "stored"),
    [
        ("../../etc/passwd", "passwd"),
        ("a/b/c.txt", "c.txt"),
        ("résumé 履歴書.pdf", "résumé 履歴書.pdf"),
    ],
)
def test_names_are_stored_as_plain_labels_and_bytes_stay_under_media_root(
    api, sent, stored, media_root
):
    file = upload(api, sent, b"x").json()["data"]["file"]
    assert file["name"] == stored
    record = File.objects.get(pk=file["id"])
    path = storages["default"].path(record.storage_name)
    assert path.startswith(str(media_root))
    assert record.storage_name == f"{record.organisation_id}/{record.pk}"


def test_a_name_longer_than_255_characters_is_shortened_keeping_its_extension(api):
    name = upload(api, "n" * 300 + ".txt", b"x").json()["data"]["file"]["name"]
    assert len(name) == 255 and name.endswith(".txt")


def test_upload_without_a_file_part_is_invalid_parameters(api):
    response = api.post("/v1/files/upload", {"other": "x"}, format="multipart")
    assert response.status_code == 400
    assert response.json()["error"]["details"]["file"]


def test_upload_as_json_is_invalid_parameters(api):
    response = api.post("/v1/files/upload", {"file": "x"}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "INVALID_PARAMETERS"


def test_upload_into_unknown_folder_is_folder_not_found(api):
    response = upload(api, "a.txt", b"x", folderId="fld_nope")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "FOLDER_NOT_FOUND"
    assert response.json()["error"]["details"] == {"folderId": "fld_nope"}


def test_a_file_over_the_plans_upload_size_is_file_too_large(api, settings):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "maxUploadSize": 1000}}
    response = upload(api, "big.bin", b"x" * 5000)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "FILE_TOO_LARGE"
    assert not File.objects.exists()


def test_an_upload_past_the_quota_is_storage_quota_exceeded(api, admin_key, settings, media_root):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "storageLimit": 100}}
    assert upload(api, "a.bin", b"x" * 60).status_code == 200
    response = upload(api, "b.bin", b"x" * 60)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "STORAGE_QUOTA_EXCEEDED"
    org = Organisation.objects.get(pk=admin_key.organisation_id)
    assert (org.storage_used, org.file_count) == (60, 1)
    stored = [p for p in (media_root / org.pk).iterdir()]
    assert len(stored) == 1


def test_uploading_needs_files_write(client_for, org):
    key = ApiKeyFactory(organisation=org, permissions=["files:read"])
    response = upload(client_for(key), "a.txt", b"x")
    assert response.status_code == 403
    assert response.json()["error"]["details"]["requiredPermission"] == "files:write"
