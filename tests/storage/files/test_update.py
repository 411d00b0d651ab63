from __future__ import annotations

import io
import json
from datetime import timedelta

import pytest
from PIL import Image

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from storage_service.files.serializers import MAX_METADATA_BYTES
from tests.storage.envelope import data_of, error_of
from tests.storage.factories import ApiKeyFactory, FileFactory, FolderFactory
from tests.storage.uploading import upload_file

pytestmark = pytest.mark.django_db

AN_HOUR_AGO = clock.now() - timedelta(hours=1)


@pytest.fixture
def file(org) -> File:
    return FileFactory(organisation=org, name="report.txt", updated_at=AN_HOUR_AGO)


def patch(api, file_id: str, body, **extra):
    return api.patch(f"/v1/files/{file_id}", body, format="json", **extra)


def png_bytes(width: int, height: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), "red").save(buffer, "PNG")
    return buffer.getvalue()


def usage(org: Organisation) -> tuple[int, int]:
    org.refresh_from_db(fields=["storage_used", "file_count"])
    return org.storage_used, org.file_count


def test_a_rename_answers_the_file_record_and_sets_updated_at(api, file):
    answer = data_of(patch(api, file.pk, {"name": "final report.txt"}))["file"]
    assert answer["id"] == file.pk and answer["name"] == "final report.txt"
    assert answer["updatedAt"] > clock.iso(AN_HOUR_AGO)
    assert answer["uploadedAt"] == clock.iso(file.uploaded_at)
    got = data_of(api.get(f"/v1/files/{file.pk}"))["file"]
    assert {k: v for k, v in got.items() if k != "url"} == {
        k: v for k, v in answer.items() if k != "url"
    }


def test_a_name_is_trimmed_like_an_uploads(api, file):
    answer = data_of(patch(api, file.pk, {"name": " a b.txt "}))["file"]
    assert answer["name"] == "a b.txt"


def test_the_download_link_carries_the_new_name(api, file):
    url = data_of(patch(api, file.pk, {"name": "renamed.txt"}))["file"]["url"]
    assert api.get(url)["Content-Disposition"] == 'attachment; filename="renamed.txt"'


BAD_NAMES = ["", "   ", ".", "..", "\x00\x01", "x" * 256, 5, None, ["a.txt"], {"a": 1}]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_is_invalid_parameters_naming_name(api, file, name):
    error = error_of(patch(api, file.pk, {"name": name}), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == ["name"]
    file.refresh_from_db()
    assert file.name == "report.txt" and file.updated_at == AN_HOUR_AGO


def test_a_name_of_255_characters_is_accepted(api, file):
    assert data_of(patch(api, file.pk, {"name": "x" * 255}))["file"]["name"] == "x" * 255


def test_two_files_may_share_a_name(api, org, file):
    other = FileFactory(organisation=org)
    assert data_of(patch(api, other.pk, {"name": "report.txt"}))["file"]["name"] == "report.txt"


def test_a_move_puts_the_file_in_the_folder_and_null_brings_it_back_to_the_root(api, org, file):
    folder = FolderFactory(organisation=org)
    assert data_of(patch(api, file.pk, {"folderId": folder.pk}))["file"]["folderId"] == folder.pk
    listed = data_of(api.get("/v1/files", {"folderId": folder.pk}))["files"]
    assert [f["id"] for f in listed] == [file.pk]
    assert data_of(patch(api, file.pk, {"folderId": None}))["file"]["folderId"] is None
    assert File.objects.get(pk=file.pk).folder_id is None
    assert data_of(api.get("/v1/files", {"folderId": folder.pk}))["files"] == []


def test_a_move_between_folders(api, org):
    source, target = FolderFactory(organisation=org), FolderFactory(organisation=org)
    file = FileFactory(organisation=org, folder=source)
    assert data_of(patch(api, file.pk, {"folderId": target.pk}))["file"]["folderId"] == target.pk


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_an_unknown_trashed_or_foreign_folder_is_the_same_folder_not_found(api, org, file, kind):
    folder_id = {
        "unknown": lambda: "fld_doesnotexist",
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=clock.now()).pk,
        "foreign": lambda: FolderFactory().pk,
    }[kind]()
    error = error_of(patch(api, file.pk, {"folderId": folder_id}), 404, "FOLDER_NOT_FOUND")
    assert error == {
        "code": "FOLDER_NOT_FOUND",
        "message": "No folder with this id.",
        "details": {"folderId": folder_id},
    }
    assert File.objects.get(pk=file.pk).folder_id is None


@pytest.mark.parametrize("folder_id", ["", "x" * 65, 7, ["fld_a"]])
def test_a_folder_id_that_is_not_an_id_is_invalid_parameters(api, file, folder_id):
    error = error_of(patch(api, file.pk, {"folderId": folder_id}), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == ["folderId"]


def test_a_foreign_file_answers_exactly_like_a_missing_one(api):
    foreign = FileFactory(name="theirs.txt")
    missing = error_of(patch(api, "file_missing", {"name": "x"}), 404, "FILE_NOT_FOUND")
    answer = error_of(patch(api, foreign.pk, {"name": "x"}), 404, "FILE_NOT_FOUND")
    assert answer == {**missing, "details": {"fileId": foreign.pk}}
    assert File.objects.get(pk=foreign.pk).name == "theirs.txt"


def test_a_file_in_the_trash_is_file_not_found(api, org):
    folder = FolderFactory(organisation=org)
    file = FileFactory(organisation=org, folder=folder)
    data_of(api.delete(f"/v1/folders/{folder.pk}?force=true"))
    error_of(patch(api, file.pk, {"name": "back.txt"}), 404, "FILE_NOT_FOUND")


def test_metadata_replaces_what_the_client_set_before(api, file):
    assert data_of(patch(api, file.pk, {"metadata": {"a": 1, "tags": ["x"]}}))["file"][
        "metadata"
    ] == {"a": 1, "tags": ["x"]}
    answer = data_of(patch(api, file.pk, {"metadata": {"b": {"c": None}}}))["file"]
    assert answer["metadata"] == {"b": {"c": None}}
    assert data_of(patch(api, file.pk, {"metadata": {}}))["file"]["metadata"] == {}


def test_an_images_measured_width_and_height_stay_unless_the_client_sets_them(api):
    image = upload_file(api, "photo.png", png_bytes(7, 5))
    assert (image["metadata"]["width"], image["metadata"]["height"]) == (7, 5)
    metadata = data_of(patch(api, image["id"], {"metadata": {"caption": "Dusk"}}))["file"][
        "metadata"
    ]
    assert metadata == {
        "width": 7,
        "height": 5,
        "caption": "Dusk",
        "sha256": image["metadata"]["sha256"],
    }
    metadata = data_of(patch(api, image["id"], {"metadata": {"width": 5, "height": 7.0}}))["file"][
        "metadata"
    ]
    assert (metadata["width"], metadata["height"], "caption" in metadata) == (5, 7.0, False)


@pytest.mark.parametrize(
    ("metadata", "field"),
    [
        (None, "metadata"),
        ([1, 2], "metadata"),
        ("text", "metadata"),
        (5, "metadata"),
        ({"sha256": "0" * 64}, "metadata.sha256"),
        ({"width": "wide"}, "metadata.width"),
        ({"height": True}, "metadata.height"),
        ({"width": None}, "metadata.width"),
        ({"note": "a\x00b"}, "metadata"),
        ({"deep": [{"key\x00": 1}]}, "metadata"),
        ({"blob": "x" * MAX_METADATA_BYTES}, "metadata"),
    ],
)
def test_bad_metadata_is_invalid_parameters(api, file, metadata, field):
    error = error_of(patch(api, file.pk, {"metadata": metadata}), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == [field]
    assert File.objects.get(pk=file.pk).metadata == {}


def test_metadata_of_16_kib_is_accepted_and_one_byte_more_is_not(api, file):
    filler = MAX_METADATA_BYTES - len(json.dumps({"blob": ""}, separators=(",", ":")))
    metadata = {"blob": "\u00e9" * (filler // 2) + "x" * (filler % 2)}  # bytes, not characters
    assert len(json.dumps(metadata, ensure_ascii=False, separators=(",", ":")).encode()) == (
        MAX_METADATA_BYTES
    )
    assert data_of(patch(api, file.pk, {"metadata": metadata}))["file"]["metadata"] == metadata
    metadata["blob"] += "x"
    error = error_of(patch(api, file.pk, {"metadata": metadata}), 400, "INVALID_PARAMETERS")
    assert error["details"]["metadata"].startswith(f"Must be at most {MAX_METADATA_BYTES} bytes")


def test_every_field_at_once(api, org, file):
    folder = FolderFactory(organisation=org)
    body = {"name": "b.txt", "folderId": folder.pk, "metadata": {"k": "v"}}
    answer = data_of(patch(api, file.pk, body))["file"]
    assert (answer["name"], answer["folderId"], answer["metadata"]) == (
        "b.txt",
        folder.pk,
        {"k": "v"},
    )


def test_one_bad_field_changes_nothing(api, org, file):
    folder = FolderFactory(organisation=org)
    body = {"name": "b.txt", "folderId": folder.pk, "metadata": []}
    error_of(patch(api, file.pk, body), 400, "INVALID_PARAMETERS")
    error_of(patch(api, file.pk, {"name": "b.txt", "folderId": "fld_gone"}), 404)
    file.refresh_from_db()
    assert (file.name, file.folder_id, file.updated_at) == ("report.txt", None, AN_HOUR_AGO)


def test_unknown_fields_are_invalid_parameters(api, file):
    response = patch(api, file.pk, {"name": "b.txt", "size": 1, "type": "image/png"})
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert error["details"] == {"size": "Unknown field.", "type": "Unknown field."}


@pytest.mark.parametrize("body", [{}, None, [], "name"])
def test_an_empty_or_non_object_body_is_invalid_parameters(api, file, body):
    response = api.patch(f"/v1/files/{file.pk}", json.dumps(body), content_type="application/json")
    assert list(error_of(response, 400, "INVALID_PARAMETERS")["details"]) == ["body"]


def test_usage_and_quota_are_unchanged(api, org, file):
    folder = FolderFactory(organisation=org)
    before = usage(org)
    data_of(patch(api, file.pk, {"name": "x.txt", "folderId": folder.pk, "metadata": {"a": 1}}))
    assert usage(org) == before == (file.size, 1)
    assert data_of(api.get("/v1/files", {"type": "document"}))["pagination"]["total"] == 1


def test_updating_needs_files_write(client_for, org, file):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    error = error_of(patch(reader, file.pk, {"name": "x.txt"}), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "files:write"}
    writer = client_for(ApiKeyFactory(organisation=org, permissions=["files:write"]))
    assert data_of(patch(writer, file.pk, {"name": "x.txt"}))["file"]["name"] == "x.txt"


def test_put_is_method_not_allowed(api, file):
    response = api.put(f"/v1/files/{file.pk}", {"name": "x.txt"}, format="json")
    error_of(response, 405, "METHOD_NOT_ALLOWED")
    assert "PATCH" in response["Allow"]
