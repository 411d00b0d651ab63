"""GET /files/multipart-upload/{uploadId}: what a client that lost its state needs to resume."""

from __future__ import annotations

import pytest

from storage_service import clock
from storage_service.uploads.models import MultipartUpload
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploads.flows import (
    PART_SIZE,
    abort,
    complete,
    data_of,
    data_ok,
    error_of,
    put_part,
    put_parts,
    started,
)

pytestmark = pytest.mark.django_db


def state(client, upload_id: str):
    return client.get(f"/v1/files/multipart-upload/{upload_id}")


def test_a_new_upload_lists_every_part_as_missing(api):
    data = data_of(2500)
    upload = started(api, data, name="movie.mp4", type="video/mp4")
    answer = data_ok(state(api, upload["uploadId"]))
    row = MultipartUpload.objects.get(pk=upload["uploadId"])
    assert answer == {
        "uploadId": upload["uploadId"],
        "name": "movie.mp4",
        "size": 2500,
        "type": "video/mp4",
        "folderId": None,
        "partSize": PART_SIZE,
        "partCount": 3,
        "createdAt": clock.iso(row.created_at),
        "expiresAt": upload["expiresAt"],
        "parts": [
            {
                "partNumber": number,
                "url": start_part["url"],
                "size": size,
                "etag": None,
                "uploadedAt": None,
            }
            for number, start_part, size in zip(
                (1, 2, 3), upload["parts"], (1024, 1024, 452), strict=True
            )
        ],
        "missingParts": [1, 2, 3],
    }


def test_parts_that_arrived_show_their_size_and_etag(api):
    data = data_of(2500)
    upload = started(api, data)
    sent = data_ok(put_part(api, upload["parts"][2]["url"], data[2048:]))
    answer = data_ok(state(api, upload["uploadId"]))
    third = answer["parts"][2]
    assert (third["size"], third["etag"]) == (452, sent["etag"])
    assert third["uploadedAt"] is not None
    assert answer["missingParts"] == [1, 2]


def test_the_listed_parts_complete_the_upload(api):
    """Resuming: send what is missing, then complete with the etags the state lists."""
    data = data_of(2500)
    upload = started(api, data)
    data_ok(put_part(api, upload["parts"][0]["url"], data[:1024]))
    answer = data_ok(state(api, upload["uploadId"]))
    for number in answer["missingParts"]:
        chunk = data[(number - 1) * 1024 : number * 1024]
        data_ok(put_part(api, answer["parts"][number - 1]["url"], chunk))
    parts = [
        {"partNumber": part["partNumber"], "etag": part["etag"]}
        for part in data_ok(state(api, upload["uploadId"]))["parts"]
    ]
    assert data_ok(complete(api, upload["uploadId"], parts))["file"]["size"] == 2500


@pytest.mark.parametrize("finish", ["complete", "abort"])
def test_a_finished_upload_is_upload_not_found(api, finish):
    data = data_of(1500)
    upload = started(api, data)
    parts = put_parts(api, upload, data)
    if finish == "complete":
        data_ok(complete(api, upload["uploadId"], parts))
    else:
        data_ok(abort(api, upload["uploadId"]))
    assert error_of(state(api, upload["uploadId"]), 404)["code"] == "UPLOAD_NOT_FOUND"


def test_an_expired_upload_is_upload_not_found(api):
    upload = started(api, data_of(1500))
    MultipartUpload.objects.update(expires_at=clock.now())
    assert error_of(state(api, upload["uploadId"]), 404)["code"] == "UPLOAD_NOT_FOUND"


def test_another_organisations_upload_is_upload_not_found(api, client_for):
    upload = started(api, data_of(1500))
    stranger = client_for(ApiKeyFactory(organisation=OrganisationFactory()))
    error = error_of(state(stranger, upload["uploadId"]), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND"


def test_reading_an_upload_needs_files_write(api, client_for, admin_key):
    upload = started(api, data_of(1500))
    reader = client_for(
        ApiKeyFactory(organisation=admin_key.organisation, permissions=["files:read"])
    )
    assert error_of(state(reader, upload["uploadId"]), 403)["code"] == "ACCESS_DENIED"
