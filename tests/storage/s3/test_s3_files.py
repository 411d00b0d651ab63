from __future__ import annotations

import hashlib
import io
import os
import urllib.request
from email.message import Message

import boto3
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from storage_service.accounts.models import Organisation
from tests.storage.uploading import upload_file
from tests.storage.uploads.flows import abort, complete, data_ok, put_parts, started, uploaded

pytestmark = pytest.mark.django_db


def fetch(url: str, **headers: str) -> tuple[int, Message, bytes]:
    request = urllib.request.Request(url, headers=headers)  # noqa: S310 - the test's own server
    with urllib.request.urlopen(request) as response:  # noqa: S310
        return response.status, response.headers, response.read()


def test_an_upload_lands_in_the_bucket_and_downloads_byte_identical(api, s3_objects):
    data = bytes(range(256)) * 4096  # 1 MiB
    file = upload_file(api, "blob.bin", data)
    org_id = Organisation.objects.get().pk
    assert s3_objects() == {f"{org_id}/{file['id']}"}
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    redirect = api.get(file["url"])
    assert redirect.status_code == 302
    status, headers, body = fetch(redirect["Location"])
    assert status == 200 and body == data
    assert headers["Content-Type"] == "application/octet-stream"
    assert headers["Content-Disposition"] == 'attachment; filename="blob.bin"'


def test_the_object_store_serves_ranges(api, s3_bucket):
    data = b"0123456789" * 100
    location = api.get(upload_file(api, "digits.txt", data)["url"])["Location"]
    status, headers, body = fetch(location, Range="bytes=10-19")
    assert headers["Content-Range"] == "bytes 10-19/1000"
    assert status == 206 and body == data[10:20]


def test_images_are_measured_before_they_leave_for_the_bucket(api, s3_bucket):
    buffer = io.BytesIO()
    Image.new("RGB", (9, 4)).save(buffer, "PNG")
    file = upload_file(api, "pic.png", buffer.getvalue())
    assert (file["type"], file["metadata"]["width"], file["metadata"]["height"]) == (
        "image/png",
        9,
        4,
    )


def test_deleting_a_file_removes_the_object(api, s3_objects, django_capture_on_commit_callbacks):
    file = upload_file(api, "gone.txt", b"bye")
    with django_capture_on_commit_callbacks(execute=True):
        assert api.delete(f"/v1/files/{file['id']}").status_code == 200
    assert s3_objects() == set()


def test_a_multipart_upload_uses_the_stores_own_and_round_trips(api, s3_objects, settings):
    settings.MULTIPART_MIN_PART_SIZE = 5 * 1024 * 1024  # the store's own smallest part
    data = os.urandom(5 * 1024 * 1024) + b"tail" * 1000
    upload, parts = uploaded(api, data, partSize=5 * 1024 * 1024)
    assert len(parts) == 2
    org_id = Organisation.objects.get().pk
    assert s3_objects() == set()  # parts wait in the store's upload, not as objects
    file = data_ok(complete(api, upload["uploadId"], parts))["file"]
    assert file["size"] == len(data)
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert s3_objects() == {f"{org_id}/{file['id']}"}
    _, _, body = fetch(api.get(file["url"])["Location"])
    assert body == data


def test_aborting_a_multipart_upload_aborts_the_stores(
    api, s3_endpoint, s3_bucket, settings, django_capture_on_commit_callbacks
):
    settings.MULTIPART_MIN_PART_SIZE = 5 * 1024 * 1024
    data = os.urandom(6 * 1024 * 1024)
    upload = started(api, data, partSize=5 * 1024 * 1024)
    put_parts(api, upload, data)
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    assert len(client.list_multipart_uploads(Bucket=s3_bucket).get("Uploads", [])) == 1
    with django_capture_on_commit_callbacks(execute=True):
        data_ok(abort(api, upload["uploadId"]))
    assert client.list_multipart_uploads(Bucket=s3_bucket).get("Uploads", []) == []


def test_a_permanent_folder_deletion_removes_its_objects(
    api, admin_key, s3_objects, django_capture_on_commit_callbacks
):
    Organisation.objects.filter(pk=admin_key.organisation_id).update(folder_deletion="permanent")
    folder = data_ok(api.post("/v1/folders", {"name": "album"}, format="json"))["folder"]
    for name in ["a.txt", "b.txt"]:
        upload = {"file": SimpleUploadedFile(name, b"bytes"), "folderId": folder["folderId"]}
        assert api.post("/v1/files/upload", upload, format="multipart").status_code == 200
    assert len(s3_objects()) == 2
    with django_capture_on_commit_callbacks(execute=True):
        response = api.delete(f"/v1/folders/{folder['folderId']}?force=true")
    assert data_ok(response)["deletedFiles"] == 2
    assert s3_objects() == set()
