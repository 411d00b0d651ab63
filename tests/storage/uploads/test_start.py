from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils.dateparse import parse_datetime

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.uploads.layout import MIB, part_layout
from storage_service.uploads.models import MultipartUpload
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploads.conftest import make_folder, set_free_plan
from tests.storage.uploads.flows import data_ok, error_of, start

pytestmark = pytest.mark.django_db


def test_start_lays_out_the_parts_with_one_url_each(api, org):
    data = data_ok(start(api, name="movie.mp4", size=2500, partSize=1024, type="video/mp4"))
    assert set(data) == {"uploadId", "partSize", "partCount", "expiresAt", "parts"}
    assert data["uploadId"].startswith("upl_")
    assert (data["partSize"], data["partCount"]) == (1024, 3)
    assert data["parts"] == [
        {
            "partNumber": number,
            "url": f"http://testserver/v1/files/multipart-upload/{data['uploadId']}/parts/{number}",
        }
        for number in (1, 2, 3)
    ]
    upload = MultipartUpload.objects.get(pk=data["uploadId"])
    assert upload.organisation == org and upload.content_type == "video/mp4"
    assert upload.storage_name == f"{org.pk}/{upload.reserved_file_id}"
    assert upload.reserved_file_id.startswith("file_")


def test_an_upload_expires_after_a_day_by_default(api):
    before = clock.now()
    data = data_ok(start(api, name="a.bin", size=10))
    expires = parse_datetime(data["expiresAt"])
    assert before + timedelta(hours=24) - timedelta(seconds=1) <= expires
    assert expires <= clock.now() + timedelta(hours=24)


def test_the_lifetime_comes_from_the_settings(api, settings):
    settings.MULTIPART_UPLOAD_TTL = 60
    expires = parse_datetime(data_ok(start(api, name="a.bin", size=10))["expiresAt"])
    assert expires <= clock.now() + timedelta(seconds=60)


def test_the_default_part_size_is_8_mib_and_a_small_file_is_one_part(api):
    big = data_ok(start(api, name="a.bin", size=20 * MIB))
    assert (big["partSize"], big["partCount"]) == (8 * MIB, 3)
    small = data_ok(start(api, name="b.bin", size=100))
    assert (small["partSize"], small["partCount"]) == (100, 1)


def test_a_part_size_below_the_minimum_is_allowed_only_for_the_whole_file(api):
    error = error_of(start(api, name="a.bin", size=3000, partSize=1000), 400)
    assert error["code"] == "INVALID_PARAMETERS" and "partSize" in error["details"]
    whole = data_ok(start(api, name="a.bin", size=1000, partSize=1000))
    assert (whole["partSize"], whole["partCount"]) == (1000, 1)
    larger = data_ok(start(api, name="a.bin", size=500, partSize=4096))
    assert (larger["partSize"], larger["partCount"]) == (500, 1)


def test_the_minimum_part_size_is_5_mib_unless_configured(api, settings):
    del settings.MULTIPART_MIN_PART_SIZE
    error = error_of(start(api, name="a.bin", size=20 * MIB, partSize=4 * MIB), 400)
    assert "partSize" in error["details"]
    assert data_ok(start(api, name="a.bin", size=20 * MIB, partSize=5 * MIB))["partCount"] == 4


def test_a_part_size_over_512_mib_is_invalid(api, settings):
    set_free_plan(settings, maxUploadSize=2**40, storageLimit=2**41)
    error = error_of(start(api, name="a.bin", size=2**30, partSize=512 * MIB + 1), 400)
    assert error["code"] == "INVALID_PARAMETERS" and "partSize" in error["details"]


def test_more_than_10000_parts_is_invalid(api):
    error = error_of(start(api, name="a.bin", size=10_001 * 1024, partSize=1024), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert "10000" in error["details"]["partSize"]
    assert data_ok(start(api, name="a.bin", size=10_000 * 1024, partSize=1024))["partCount"] == (
        10_000
    )


def test_the_default_part_size_grows_so_a_huge_file_fits_in_10000_parts():
    layout = part_layout(size=100 * 1024 * MIB, part_size=None)
    assert layout.part_size == 11 * MIB and layout.part_count <= 10_000


def test_start_into_a_live_folder_records_it(api, org):
    folder = make_folder(org)
    data = data_ok(start(api, name="a.bin", size=10, folderId=folder.pk))
    assert MultipartUpload.objects.get(pk=data["uploadId"]).folder == folder


@pytest.mark.parametrize("which", ["unknown", "trashed", "foreign"])
def test_start_into_a_missing_folder_is_folder_not_found(api, org, which):
    folder_id = "fld_missing"
    if which == "trashed":
        folder = make_folder(org)
        folder.deleted_at = clock.now()
        folder.save(update_fields=["deleted_at"])
        folder_id = folder.pk
    elif which == "foreign":
        folder_id = make_folder(OrganisationFactory()).pk
    error = error_of(start(api, name="a.bin", size=10, folderId=folder_id), 404)
    assert error["code"] == "FOLDER_NOT_FOUND"
    assert error["details"] == {"folderId": folder_id}
    assert not MultipartUpload.objects.exists()


def test_a_file_larger_than_the_plan_allows_is_file_too_large(api, settings):
    set_free_plan(settings, maxUploadSize=4096)
    error = error_of(start(api, name="a.bin", size=4097), 400)
    assert error["code"] == "FILE_TOO_LARGE"
    assert error["details"] == {"size": 4097, "maxSize": 4096}
    assert data_ok(start(api, name="a.bin", size=4096))


def test_a_file_that_does_not_fit_the_quota_is_refused_at_start(api, org):
    limit = org.plan_limits["storageLimit"]
    Organisation.objects.filter(pk=org.pk).update(storage_used=limit - 100)
    error = error_of(start(api, name="a.bin", size=101), 403)
    assert error["code"] == "STORAGE_QUOTA_EXCEEDED"
    assert not MultipartUpload.objects.exists()
    assert data_ok(start(api, name="a.bin", size=100))


def test_a_key_without_files_write_is_access_denied(client_for, org):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    error = error_of(start(reader, name="a.bin", size=10), 403)
    assert error["code"] == "ACCESS_DENIED"
    writer = client_for(ApiKeyFactory(organisation=org, permissions=["files:write"]))
    assert data_ok(start(writer, name="a.bin", size=10))


def test_start_without_a_key_is_invalid_api_key(client_for):
    assert error_of(start(client_for(None), name="a.bin", size=10), 401)["code"] == (
        "INVALID_API_KEY"
    )


@pytest.mark.parametrize(
    "body, field",
    [
        ({"size": 10}, "name"),
        ({"name": "a.bin"}, "size"),
        ({"name": "a.bin", "size": 10, "colour": "red"}, "colour"),
        ({"name": 5, "size": 10}, "name"),
        ({"name": "", "size": 10}, "name"),
        ({"name": "   ", "size": 10}, "name"),
        ({"name": "..", "size": 10}, "name"),
        ({"name": "x" * 256, "size": 10}, "name"),
        ({"name": "x" * 100_000, "size": 10}, "name"),
        ({"name": "a/b.txt", "size": 10}, "name"),
        ({"name": "a\\b.txt", "size": 10}, "name"),
        ({"name": "a\x00b", "size": 10}, "name"),
        ({"name": "a\nb", "size": 10}, "name"),
        ({"name": "a\u2028b", "size": 10}, "name"),
        ({"name": "a.bin", "size": "10"}, "size"),
        ({"name": "a.bin", "size": True}, "size"),
        ({"name": "a.bin", "size": 10.5}, "size"),
        ({"name": "a.bin", "size": 0}, "size"),
        ({"name": "a.bin", "size": -1}, "size"),
        ({"name": "a.bin", "size": None}, "size"),
        ({"name": "a.bin", "size": 10, "partSize": True}, "partSize"),
        ({"name": "a.bin", "size": 10, "partSize": "1024"}, "partSize"),
        ({"name": "a.bin", "size": 10, "partSize": 0}, "partSize"),
        ({"name": "a.bin", "size": 10, "type": "not a mime type"}, "type"),
        ({"name": "a.bin", "size": 10, "type": 7}, "type"),
        ({"name": "a.bin", "size": 10, "folderId": 7}, "folderId"),
    ],
)
def test_a_bad_body_is_invalid_parameters_naming_the_field(api, body, field):
    response = api.post("/v1/files/multipart-upload-start", body, format="json")
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert field in error["details"]
    assert len(response.content) < 2000  # a huge name is not echoed back
    assert not MultipartUpload.objects.exists()


@pytest.mark.parametrize("raw", ["[1, 2]", '"name"', "{not json"])
def test_a_body_that_is_not_a_json_object_is_invalid_parameters(api, raw):
    response = api.generic(
        "POST", "/v1/files/multipart-upload-start", raw, content_type="application/json"
    )
    assert error_of(response, 400)["code"] == "INVALID_PARAMETERS"


def test_a_form_body_is_invalid_parameters(api):
    response = api.post(
        "/v1/files/multipart-upload-start", {"name": "a.bin", "size": "10"}, format="multipart"
    )
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS" and "body" in error["details"]


def test_optional_fields_may_be_null_and_the_type_loses_its_parameters(api):
    data = data_ok(start(api, name="notes é.txt", size=10, folderId=None, partSize=None, type=None))
    assert data["partCount"] == 1
    data = data_ok(start(api, name="a.csv", size=10, type="Text/CSV; charset=utf-8"))
    assert MultipartUpload.objects.get(pk=data["uploadId"]).content_type == "text/csv"


def test_the_path_takes_a_trailing_slash_and_other_methods_are_not_allowed(api):
    response = api.post(
        "/v1/files/multipart-upload-start/", {"name": "a.bin", "size": 10}, format="json"
    )
    assert data_ok(response)
    assert error_of(api.get("/v1/files/multipart-upload-start"), 405)["code"] == (
        "METHOD_NOT_ALLOWED"
    )
