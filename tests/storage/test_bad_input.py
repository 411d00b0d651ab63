"""Input no database can store answers 400 INVALID_PARAMETERS, never 500."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.storage.envelope import error_of
from tests.storage.uploading import upload_file

pytestmark = pytest.mark.django_db


def deep(levels: int) -> str:
    return '{"name": ' + "[" * levels + "]" * levels + "}"


@pytest.mark.parametrize("path", ["/v1/folders", "/v1/keys", "/v1/folders/bulk"])
@pytest.mark.parametrize(
    "body",
    [
        deep(1000),
        deep(65),
        '{"name": "half \\ud800 a pair"}',
        '{"name": "x", "\\udc00": 1}',
    ],
)
def test_bodies_that_cannot_be_read_are_invalid_parameters(api, path, body):
    method = api.delete if path.endswith("bulk") else api.post
    error = error_of(method(path, data=body, content_type="application/json"), 400)
    assert error["code"] == "INVALID_PARAMETERS"


@pytest.mark.parametrize(
    "path, code",
    [("/v1/folders", "INVALID_PARAMETERS"), ("/v1/keys", "INVALID_KEY_NAME")],
)
def test_a_nul_in_a_name_is_refused_by_the_field(api, path, code):
    body = '{"name": "nul \\u0000 inside"}'
    error = error_of(api.post(path, data=body, content_type="application/json"), 400)
    assert error["code"] == code


NUL_ID = "fld_\u0000x"


# Found by fuzzing on PostgreSQL, which cannot hold a NUL in text: an id in a body reached the
# query and answered 500.
@pytest.mark.parametrize(
    "method, path, body",
    [
        ("delete", "/v1/folders/bulk", {"folderIds": ["fld_a", NUL_ID]}),
        ("delete", "/v1/keys/bulk", {"keyIds": [NUL_ID]}),
        ("post", "/v1/folders", {"name": "n", "parentFolderId": NUL_ID}),
        ("post", "/v1/files/multipart-upload-start", {"name": "n", "size": 1, "folderId": NUL_ID}),
        (
            "post",
            "/v1/files/multipart-upload-complete",
            {"uploadId": NUL_ID, "parts": [{"partNumber": 1, "etag": "e"}]},
        ),
    ],
)
def test_a_nul_in_an_id_of_a_body_is_invalid_parameters(api, method, path, body):
    response = getattr(api, method)(path, data=body, format="json")
    assert error_of(response, 400)["code"] == "INVALID_PARAMETERS"


def test_a_nul_in_the_folder_id_of_an_upload_form_is_invalid_parameters(api):
    form = {"file": SimpleUploadedFile("a.txt", b"a"), "folderId": NUL_ID}
    response = api.post("/v1/files/upload", form, format="multipart")
    assert error_of(response, 400)["code"] == "INVALID_PARAMETERS"


def test_a_nul_in_the_folder_id_of_a_file_update_is_invalid_parameters(api):
    file = upload_file(api, "a.txt", b"a")
    response = api.patch(f"/v1/files/{file['id']}", {"folderId": NUL_ID}, format="json")
    assert error_of(response, 400)["code"] == "INVALID_PARAMETERS"


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "/v1/files/file%00x"),
        ("delete", "/v1/files/file%00x"),
        ("get", "/v1/folders/fld%00x"),
        ("delete", "/v1/folders/fld%00x"),
        ("post", "/v1/folders/fld%00x/restore"),
        ("delete", "/v1/keys/key%00x"),
        ("get", "/v1/files/multipart-upload/up%00x"),
        ("get", "/v1/downloads/tok%00en"),
        ("get", "/v1/files?folderId=a%00b"),
        ("get", "/v1/files?search=a%00b"),
        ("get", "/v1/folders?parentFolderId=a%00b"),
        ("get", "/v1/files?a%00b=1"),
        ("get", "/v1/billing/usage?start=2026%00"),
    ],
)
def test_a_nul_in_the_path_or_query_is_invalid_parameters(api, method, path):
    response = getattr(api, method)(path)
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert "X-RateLimit-Limit" in response


def test_reasonable_nesting_still_parses(api):
    body = '{"name": "ok", "permissions": ["files:read"]}'
    assert api.post("/v1/keys", data=body, content_type="application/json").status_code == 200


def test_an_unknown_body_field_named_message_is_a_detail_not_the_message(api):
    response = api.post("/v1/folders", {"name": "a", "message": "hi"}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"] != "hi"
    assert "message" in error["details"]


@pytest.mark.parametrize("path", ["/v1/files", "/v1/folders", "/v1/nowhere"])
def test_more_query_parameters_than_django_reads_is_invalid_parameters(api, path):
    query = "&".join(f"p{i}=1" for i in range(1200))  # DATA_UPLOAD_MAX_NUMBER_FIELDS is 1000
    error = error_of(api.get(f"{path}?{query}"), 400)
    assert error["code"] == "INVALID_PARAMETERS"
