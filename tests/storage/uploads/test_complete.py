from __future__ import annotations

import hashlib
import io
import multiprocessing
import random

import pytest
from django.db import connections
from PIL import Image
from rest_framework.test import APIClient

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.files.blobs import blob_store
from storage_service.files.models import File
from storage_service.uploads.assembly import data_blob_name
from storage_service.uploads.models import MultipartUpload, UploadPart
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploads.conftest import make_folder
from tests.storage.uploads.flows import (
    abort,
    complete,
    data_of,
    data_ok,
    downloaded,
    error_of,
    put_parts,
    started,
    uploaded,
)

pytestmark = pytest.mark.django_db


def png_of(width: int, height: int) -> bytes:
    """A PNG of random pixels, so it does not compress below a few parts."""
    image = Image.frombytes("RGB", (width, height), data_of(width * height * 3))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def test_parts_sent_in_any_order_join_into_the_same_bytes(api, org):
    data = data_of(5000)
    upload = started(api, data, name="report.bin")
    order = [3, 5, 1, 4, 2]
    random.shuffle(order)
    parts = put_parts(api, upload, data, order=order)
    file = data_ok(complete(api, upload["uploadId"], parts))["file"]
    assert downloaded(api, file) == data
    assert file["name"] == "report.bin" and file["size"] == 5000
    assert file["folderId"] is None
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    record = File.objects.get(pk=file["id"])
    assert record.organisation == org and record.sha256 == hashlib.sha256(data).hexdigest()
    with blob_store().open(record.storage_name) as stream:
        assert stream.read() == data


def test_the_file_gets_the_id_reserved_at_start_and_counts_against_the_quota(api, org):
    data = data_of(3000)
    upload, parts = uploaded(api, data)
    reserved = MultipartUpload.objects.get(pk=upload["uploadId"]).reserved_file_id
    file = data_ok(complete(api, upload["uploadId"], parts))["file"]
    assert file["id"] == reserved
    org.refresh_from_db()
    assert (org.storage_used, org.file_count) == (3000, 1)
    finished = MultipartUpload.objects.get(pk=upload["uploadId"])
    assert finished.file_id == reserved and finished.completed_at is not None
    assert data_ok(api.get(f"/v1/files/{reserved}"))["file"]["id"] == reserved


def test_complete_deletes_the_parts_once_committed(api, django_capture_on_commit_callbacks):
    data = data_of(2048)
    upload, parts = uploaded(api, data)
    with django_capture_on_commit_callbacks(execute=True):
        data_ok(complete(api, upload["uploadId"], parts))
    assert not UploadPart.objects.exists()
    assert not blob_store().exists(data_blob_name(upload["uploadId"]))


def test_a_png_gets_its_type_width_and_height(api):
    data = png_of(64, 48)
    assert len(data) > 3 * 1024
    upload, parts = uploaded(api, data, name="picture")
    file = data_ok(complete(api, upload["uploadId"], parts))["file"]
    assert file["type"] == "image/png"
    assert file["metadata"]["width"] == 64 and file["metadata"]["height"] == 48
    assert downloaded(api, file) == data


def test_the_type_the_content_shows_beats_the_declared_one(api):
    data = png_of(40, 40)
    upload, parts = uploaded(api, data, name="x.pdf", type="application/pdf")
    assert data_ok(complete(api, upload["uploadId"], parts))["file"]["type"] == "image/png"


def test_the_declared_type_beats_the_extension_when_the_content_shows_none(api):
    data = b"id,name\n" * 200
    upload, parts = uploaded(api, data, name="table.txt", type="text/csv")
    file = data_ok(complete(api, upload["uploadId"], parts))["file"]
    assert file["type"] == "text/csv"
    assert "width" not in file["metadata"]


def test_without_a_declared_type_the_extension_decides(api):
    data = b"# Notes\n" * 200
    upload, parts = uploaded(api, data, name="notes.md")
    assert data_ok(complete(api, upload["uploadId"], parts))["file"]["type"] == "text/markdown"


def test_a_file_completed_into_a_folder_lands_there(api, org):
    folder = make_folder(org)
    data = data_of(1500)
    upload, parts = uploaded(api, data, folderId=folder.pk)
    assert data_ok(complete(api, upload["uploadId"], parts))["file"]["folderId"] == folder.pk


def test_a_folder_trashed_meanwhile_is_folder_not_found_and_the_upload_stays_open(api, org):
    folder = make_folder(org)
    upload, parts = uploaded(api, data_of(1500), folderId=folder.pk)
    folder.deleted_at = clock.now()
    folder.save(update_fields=["deleted_at"])
    error = error_of(complete(api, upload["uploadId"], parts), 404)
    assert error["code"] == "FOLDER_NOT_FOUND"
    assert MultipartUpload.objects.unfinished(clock.now()).filter(pk=upload["uploadId"]).exists()


def test_etags_compare_quoted_or_not_in_any_case(api):
    data = data_of(2048)
    upload, parts = uploaded(api, data)
    parts = [
        {"partNumber": 1, "etag": f'"{parts[0]["etag"].upper()}"'},
        {"partNumber": 2, "etag": parts[1]["etag"].upper()},
    ]
    assert downloaded(api, data_ok(complete(api, upload["uploadId"], parts))["file"]) == data


def test_a_replaced_part_must_be_listed_with_its_new_etag(api):
    data = data_of(2048)
    upload = started(api, data)
    stale = put_parts(api, upload, data_of(2048))
    fresh = put_parts(api, upload, data, order=[1])
    error = error_of(complete(api, upload["uploadId"], stale), 400)
    assert error["details"]["partNumbers"] == [1]
    file = data_ok(complete(api, upload["uploadId"], [fresh[0], stale[1]]))["file"]
    assert downloaded(api, file)[:1024] == data[:1024]


@pytest.mark.parametrize(
    "listing, reason, numbers",
    [
        ([1, 3], "missing", [2]),
        ([1, 2], "missing", [3]),
        ([1, 3, 2], "ascending", [2]),
        ([2, 1, 3], "ascending", [1]),
        ([1, 2, 2, 3], "once", [2]),
        ([1, 2, 3, 4], "1 to 3", [4]),
    ],
)
def test_a_missing_extra_or_misordered_part_is_invalid_parameters(api, listing, reason, numbers):
    data = data_of(2500)
    upload, parts = uploaded(api, data)
    etags = {part["partNumber"]: part["etag"] for part in parts}
    listed = [{"partNumber": n, "etag": etags.get(n, "0" * 32)} for n in listing]
    error = error_of(complete(api, upload["uploadId"], listed), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert reason in error["details"]["parts"]
    assert error["details"]["partNumbers"] == numbers
    assert not File.objects.exists()


def test_a_wrong_etag_is_invalid_parameters(api):
    upload, parts = uploaded(api, data_of(2500))
    parts[1]["etag"] = "0" * 32
    error = error_of(complete(api, upload["uploadId"], parts), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert "etag" in error["details"]["parts"] and error["details"]["partNumbers"] == [2]


def test_a_part_never_sent_is_invalid_parameters(api):
    data = data_of(2500)
    upload = started(api, data)
    parts = put_parts(api, upload, data, order=[1, 3])
    parts.insert(1, {"partNumber": 2, "etag": "0" * 32})
    error = error_of(complete(api, upload["uploadId"], parts), 400)
    assert "not been uploaded" in error["details"]["parts"]
    assert error["details"]["partNumbers"] == [2]


def test_an_invalid_complete_leaves_the_upload_open(api):
    data = data_of(2048)
    upload, parts = uploaded(api, data)
    error_of(complete(api, upload["uploadId"], parts[:1]), 400)
    assert downloaded(api, data_ok(complete(api, upload["uploadId"], parts))["file"]) == data


def test_a_quota_filled_meanwhile_is_refused_and_the_upload_can_complete_later(api, org):
    data = data_of(3000)
    upload, parts = uploaded(api, data)
    limit = org.plan_limits["storageLimit"]
    Organisation.objects.filter(pk=org.pk).update(storage_used=limit - 2999)
    error = error_of(complete(api, upload["uploadId"], parts), 403)
    assert error["code"] == "STORAGE_QUOTA_EXCEEDED"
    assert not File.objects.exists()
    reserved = MultipartUpload.objects.get(pk=upload["uploadId"])
    assert not blob_store().exists(reserved.storage_name)
    assert UploadPart.objects.filter(upload=reserved).count() == 3
    Organisation.objects.filter(pk=org.pk).update(storage_used=limit - 3000)
    assert downloaded(api, data_ok(complete(api, upload["uploadId"], parts))["file"]) == data


def test_complete_of_an_unknown_upload_is_upload_not_found(api):
    error = error_of(complete(api, "upl_missing", [{"partNumber": 1, "etag": "a" * 32}]), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND" and error["details"] == {"uploadId": "upl_missing"}


def test_complete_of_another_organisations_upload_is_upload_not_found(api, client_for):
    other = client_for(ApiKeyFactory(organisation=OrganisationFactory()))
    upload, parts = uploaded(other, data_of(1024))
    foreign = error_of(complete(api, upload["uploadId"], parts), 404)
    unknown = error_of(complete(api, "upl_missing", parts), 404)
    assert foreign["code"] == unknown["code"] == "UPLOAD_NOT_FOUND"
    assert foreign["message"] == unknown["message"]
    assert foreign["details"] == {"uploadId": upload["uploadId"]}
    assert data_ok(complete(other, upload["uploadId"], parts))


def test_complete_of_a_finished_upload_is_upload_not_found(api):
    data = data_of(1024)
    (done, done_parts), (aborted, aborted_parts), (expired, expired_parts) = (
        uploaded(api, data) for _ in range(3)
    )
    data_ok(complete(api, done["uploadId"], done_parts))
    data_ok(abort(api, aborted["uploadId"]))
    MultipartUpload.objects.filter(pk=expired["uploadId"]).update(expires_at="2000-01-01T00:00Z")
    for upload, parts in [(done, done_parts), (aborted, aborted_parts), (expired, expired_parts)]:
        assert error_of(complete(api, upload["uploadId"], parts), 404)["code"] == (
            "UPLOAD_NOT_FOUND"
        )
    assert File.objects.count() == 1


def test_a_key_without_files_write_cannot_complete(api, client_for, org):
    upload, parts = uploaded(api, data_of(1024))
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    assert error_of(complete(reader, upload["uploadId"], parts), 403)["code"] == "ACCESS_DENIED"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"parts": []}, "uploadId"),
        ({"uploadId": "upl_x"}, "parts"),
        ({"uploadId": "upl_x", "parts": [], "extra": 1}, "extra"),
        ({"uploadId": 5, "parts": [{"partNumber": 1, "etag": "a"}]}, "uploadId"),
        ({"uploadId": "u" * 65, "parts": [{"partNumber": 1, "etag": "a"}]}, "uploadId"),
        ({"uploadId": "upl_x", "parts": []}, "parts"),
        ({"uploadId": "upl_x", "parts": "1,2"}, "parts"),
        ({"uploadId": "upl_x", "parts": [1, 2]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 1}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 1, "etag": "a", "size": 1}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": "1", "etag": "a"}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": True, "etag": "a"}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 0, "etag": "a"}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 1.0, "etag": "a"}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 1, "etag": 5}]}, "parts"),
        ({"uploadId": "upl_x", "parts": [{"partNumber": 1, "etag": "a" * 129}]}, "parts"),
    ],
)
def test_a_bad_complete_body_is_invalid_parameters(api, body, field):
    response = api.post("/v1/files/multipart-upload-complete", body, format="json")
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS" and field in error["details"]


def _complete_in_a_child(secret: str, upload_id: str, parts: list, barrier, results) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    barrier.wait(timeout=30)
    if parts is None:
        results.put(abort(client, upload_id).status_code)
    else:
        results.put(complete(client, upload_id, parts).status_code)
    connections.close_all()


def _race(secret: str, upload_id: str, contenders: list) -> list[int]:
    connections.close_all()
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(len(contenders)), context.Queue()
    workers = [
        context.Process(
            target=_complete_in_a_child, args=(secret, upload_id, parts, barrier, results)
        )
        for parts in contenders
    ]
    for worker in workers:
        worker.start()
    statuses = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    return sorted(statuses)


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_completes_make_exactly_one_file(client_for, admin_key):
    """Two processes, like two gunicorn workers, complete the same upload at once."""
    client = client_for(admin_key)
    data = data_of(256 * 1024)
    upload, parts = uploaded(client, data, partSize=16 * 1024)
    assert _race(admin_key.secret, upload["uploadId"], [parts, parts]) == [200, 404]
    assert File.objects.count() == 1
    file = File.objects.get()
    with blob_store().open(file.storage_name) as stream:
        assert stream.read() == data
    org = Organisation.objects.get(pk=admin_key.organisation_id)
    assert (org.storage_used, org.file_count) == (len(data), 1)


@pytest.mark.django_db(transaction=True)
def test_a_complete_racing_an_abort_has_one_winner(client_for, admin_key):
    client = client_for(admin_key)
    upload, parts = uploaded(client, data_of(256 * 1024), partSize=16 * 1024)
    assert _race(admin_key.secret, upload["uploadId"], [parts, None]) == [200, 404]
    finished = MultipartUpload.objects.get(pk=upload["uploadId"])
    assert (finished.completed_at is None) != (finished.aborted_at is None)
    assert File.objects.count() == (1 if finished.completed_at else 0)
    assert blob_store().exists(finished.storage_name) == bool(finished.completed_at)
