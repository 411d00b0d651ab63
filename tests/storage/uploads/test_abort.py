from __future__ import annotations

import pytest

from storage_service import clock
from storage_service.files.blobs import blob_store
from storage_service.uploads.assembly import data_blob_name
from storage_service.uploads.models import MultipartUpload, UploadPart
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploads.flows import abort, complete, data_of, data_ok, error_of, uploaded

pytestmark = pytest.mark.django_db


def test_abort_marks_the_upload_and_removes_its_parts(
    api, media_root, django_capture_on_commit_callbacks
):
    upload, _ = uploaded(api, data_of(2500))
    upload_id = upload["uploadId"]
    assert (media_root / "uploads" / upload_id).is_dir()
    with django_capture_on_commit_callbacks(execute=True):
        answer = data_ok(abort(api, upload_id))
    assert answer["message"] and answer["uploadId"] == upload_id
    aborted = MultipartUpload.objects.get(pk=upload_id)
    assert answer["abortedAt"] == clock.iso(aborted.aborted_at)
    assert not UploadPart.objects.exists()
    assert not blob_store().exists(data_blob_name(upload_id))
    assert not (media_root / "uploads" / upload_id).exists()


def test_abort_takes_a_trailing_slash(api):
    upload, _ = uploaded(api, data_of(100))
    assert data_ok(api.delete(f"/v1/files/multipart-upload/{upload['uploadId']}/"))


def test_abort_of_an_unknown_upload_is_upload_not_found(api):
    error = error_of(abort(api, "upl_missing"), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND" and error["details"] == {"uploadId": "upl_missing"}


def test_abort_of_another_organisations_upload_is_upload_not_found(api, client_for):
    other = client_for(ApiKeyFactory(organisation=OrganisationFactory()))
    upload, _ = uploaded(other, data_of(100))
    error = error_of(abort(api, upload["uploadId"]), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND"
    assert error["message"] == error_of(abort(api, "upl_missing"), 404)["message"]
    assert MultipartUpload.objects.get(pk=upload["uploadId"]).aborted_at is None


def test_abort_of_a_finished_upload_is_upload_not_found(api):
    data = data_of(100)
    (done, parts), (aborted, _), (expired, _) = (uploaded(api, data) for _ in range(3))
    data_ok(complete(api, done["uploadId"], parts))
    data_ok(abort(api, aborted["uploadId"]))
    MultipartUpload.objects.filter(pk=expired["uploadId"]).update(expires_at="2000-01-01T00:00Z")
    for upload in (done, aborted, expired):
        assert error_of(abort(api, upload["uploadId"]), 404)["code"] == "UPLOAD_NOT_FOUND"


def test_a_key_without_files_write_cannot_abort(api, client_for, org):
    upload, _ = uploaded(api, data_of(100))
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    assert error_of(abort(reader, upload["uploadId"]), 403)["code"] == "ACCESS_DENIED"
    assert MultipartUpload.objects.get(pk=upload["uploadId"]).aborted_at is None
