from __future__ import annotations

import io

import pytest

from storage_service.files.blobs import blob_store
from storage_service.uploads.assembly import data_blob_name
from storage_service.uploads.models import MultipartUpload, UploadPart
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploads.flows import (
    abort,
    complete,
    data_of,
    data_ok,
    error_of,
    etag_of,
    part_url,
    put_part,
    put_parts,
    started,
)

pytestmark = pytest.mark.django_db


def stored(upload_id: str, part_number: int) -> bytes:
    """The bytes in the part's place in the upload's data file."""
    upload = MultipartUpload.objects.get(pk=upload_id)
    with blob_store().open(data_blob_name(upload_id)) as stream:
        stream.seek((part_number - 1) * upload.part_size)
        return stream.read(upload.part_size_of(part_number))


def test_a_part_is_stored_with_its_sha256_as_etag(api):
    data = data_of(2500)
    upload = started(api, data)
    response = put_part(api, upload["parts"][1]["url"], data[1024:2048])
    answer = data_ok(response)
    assert answer == {"partNumber": 2, "size": 1024, "etag": etag_of(data[1024:2048])}
    assert response["ETag"] == f'"{answer["etag"]}"'
    assert stored(upload["uploadId"], 2) == data[1024:2048]
    part = UploadPart.objects.get(upload_id=upload["uploadId"])
    assert (part.part_number, part.size, part.etag) == (2, 1024, answer["etag"])


def test_the_last_part_holds_the_rest(api):
    data = data_of(2500)
    upload = started(api, data)
    answer = data_ok(put_part(api, upload["parts"][2]["url"], data[2048:]))
    assert answer["size"] == 452


@pytest.mark.parametrize("part_number, size", [(1, 1023), (1, 1025), (3, 451), (3, 1024)])
def test_a_part_of_the_wrong_size_is_refused_and_not_kept(api, part_number, size):
    upload = started(api, data_of(2500))
    response = put_part(api, upload["parts"][part_number - 1]["url"], data_of(size))
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    expected = 1024 if part_number == 1 else 452
    assert error["details"] == {
        "size": f"Expected {expected} bytes, got {size} bytes.",
        "expectedSize": expected,
        "receivedSize": size,
    }
    assert not UploadPart.objects.exists()
    assert not blob_store().exists(data_blob_name(upload["uploadId"]))


def test_a_body_shorter_than_its_content_length_is_refused_when_counted(api, media_root):
    upload = started(api, data_of(2048))
    short_body = io.BytesIO(data_of(1000))
    response = put_part(
        api, upload["parts"][0]["url"], b"", CONTENT_LENGTH="1024", **{"wsgi.input": short_body}
    )
    error = error_of(response, 400)
    assert error["details"]["receivedSize"] == 1000
    assert not UploadPart.objects.exists()
    assert list((media_root / ".incoming").iterdir()) == []  # the staged bytes are gone too


def test_a_part_without_a_body_is_refused(api):
    upload = started(api, data_of(2048))
    error = error_of(api.put(upload["parts"][0]["url"]), 400)
    assert error["details"]["receivedSize"] in (0, None)


@pytest.mark.parametrize("part_number", ["0", "4", "99999", "abc", "-1", "1.0"])
def test_a_part_number_outside_the_upload_is_invalid(api, part_number):
    upload = started(api, data_of(2500))
    response = put_part(api, part_url(upload["uploadId"], part_number), data_of(1024))
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS" and "partNumber" in error["details"]


def test_sending_a_part_again_replaces_it(api):
    data = data_of(2048)
    upload = started(api, data)
    first = data_ok(put_part(api, upload["parts"][0]["url"], data_of(1024)))
    again = data_ok(put_part(api, upload["parts"][0]["url"], data[:1024]))
    assert first["etag"] != again["etag"] == etag_of(data[:1024])
    assert stored(upload["uploadId"], 1) == data[:1024]
    assert UploadPart.objects.get(upload_id=upload["uploadId"]).etag == again["etag"]


def test_the_body_is_streamed_not_read_into_memory(api, settings):
    """Django refuses ``request.body`` past DATA_UPLOAD_MAX_MEMORY_SIZE; a part never reads it."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    data = data_of(2048)
    upload = started(api, data)
    assert data_ok(put_part(api, upload["parts"][0]["url"], data[:1024]))["size"] == 1024


def test_the_part_path_takes_a_trailing_slash(api):
    data = data_of(1024)
    upload = started(api, data)
    assert data_ok(put_part(api, upload["parts"][0]["url"] + "/", data))["partNumber"] == 1


def test_a_part_for_an_unknown_upload_is_upload_not_found(api):
    error = error_of(put_part(api, part_url("upl_missing", 1), data_of(1024)), 404)
    assert error == {
        "code": "UPLOAD_NOT_FOUND",
        "message": "No open multipart upload with this id.",
        "details": {"uploadId": "upl_missing"},
    }


def test_a_part_for_another_organisations_upload_is_upload_not_found(api, client_for):
    other = client_for(ApiKeyFactory(organisation=OrganisationFactory()))
    upload = started(other, data_of(1024))
    error = error_of(put_part(api, upload["parts"][0]["url"], data_of(1024)), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND"
    assert error["details"] == {"uploadId": upload["uploadId"]}
    assert not UploadPart.objects.exists()


def test_a_part_for_a_finished_upload_is_upload_not_found(api):
    data = data_of(1024)
    aborted, done, expired = (started(api, data) for _ in range(3))
    data_ok(abort(api, aborted["uploadId"]))
    data_ok(complete(api, done["uploadId"], put_parts(api, done, data)))
    MultipartUpload.objects.filter(pk=expired["uploadId"]).update(expires_at="2000-01-01T00:00Z")
    for upload in (aborted, done, expired):
        error = error_of(put_part(api, upload["parts"][0]["url"], data), 404)
        assert error["code"] == "UPLOAD_NOT_FOUND"


def test_a_key_without_files_write_cannot_send_parts(api, client_for, org):
    upload = started(api, data_of(1024))
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    error = error_of(put_part(reader, upload["parts"][0]["url"], data_of(1024)), 403)
    assert error["code"] == "ACCESS_DENIED"
    assert not UploadPart.objects.exists()
