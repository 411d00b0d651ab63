from __future__ import annotations

from datetime import timedelta

import pytest

from storage_service import clock
from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.uploads.models import MultipartUpload
from tests.storage.factories import ApiKeyFactory, FileFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of, usage

pytestmark = pytest.mark.django_db


def bulk(api, **body):
    return api.delete("/v1/folders/bulk", body, format="json")


def test_each_folder_succeeds_or_fails_on_its_own(api, org, photos):
    empty = FolderFactory(organisation=org, name="Empty top")
    FolderFactory(parent=empty)
    full = FolderFactory(organisation=org, name="Full")
    FileFactory(folder=full, data=b"f" * 5)
    busy = FolderFactory(organisation=org, name="Busy")
    MultipartUpload.objects.create(
        organisation=org,
        folder=busy,
        name="big.bin",
        size=10,
        part_size=5,
        part_count=2,
        storage_name=f"{org.pk}/uploads/big.bin",
        expires_at=clock.now() + timedelta(hours=1),
    )
    foreign = FolderFactory()
    ids = [empty.pk, photos.year.pk, full.pk, busy.pk, "fld_missing", foreign.pk, photos.empty.pk]
    data = data_of(bulk(api, folderIds=ids))
    assert data["deleted"] == [
        {"folderId": empty.pk, "deletedFiles": 0, "deletedSubfolders": 1, "freedSpace": 0},
        {"folderId": photos.empty.pk, "deletedFiles": 0, "deletedSubfolders": 0, "freedSpace": 0},
    ]
    assert [(f["folderId"], f["code"]) for f in data["failed"]] == [
        (photos.year.pk, "FOLDER_NOT_EMPTY"),
        (full.pk, "FOLDER_NOT_EMPTY"),
        (busy.pk, "FOLDER_IN_USE"),
        ("fld_missing", "FOLDER_NOT_FOUND"),
        (foreign.pk, "FOLDER_NOT_FOUND"),
    ]
    assert all(isinstance(f["reason"], str) and f["reason"] for f in data["failed"])
    assert data["totalFreedSpace"] == 0 and data["deletedAt"].endswith("Z")
    assert usage(org) == (1115, 4)
    assert Folder.objects.in_trash().count() == 3


def test_force_and_recursive_apply_to_every_folder(api, org, photos):
    full = FolderFactory(organisation=org, name="Full")
    FileFactory(folder=full, data=b"f" * 5)
    data = data_of(bulk(api, folderIds=[photos.photos.pk, full.pk], force=True, recursive=False))
    assert [d["folderId"] for d in data["deleted"]] == [photos.photos.pk, full.pk]
    assert data["totalFreedSpace"] == 0 and usage(org) == (1115, 4)
    assert File.objects.live().count() == 4


def test_a_subfolder_after_its_deleted_ancestor_is_not_found_and_no_byte_counts_twice(api, photos):
    data = data_of(bulk(api, folderIds=[photos.photos.pk, photos.year.pk], force=True))
    assert [d["folderId"] for d in data["deleted"]] == [photos.photos.pk]
    assert data["failed"][0]["folderId"] == photos.year.pk
    assert data["failed"][0]["code"] == "FOLDER_NOT_FOUND"
    assert data["totalFreedSpace"] == 1110


def test_a_subfolder_before_its_ancestor_is_deleted_first(api, org, photos):
    data = data_of(bulk(api, folderIds=[photos.year.pk, photos.photos.pk], force=True))
    assert [d["freedSpace"] for d in data["deleted"]] == [1100, 10]
    assert [d["deletedSubfolders"] for d in data["deleted"]] == [2, 0]
    assert data["totalFreedSpace"] == 1110 and usage(org) == (0, 0)


def test_a_repeated_id_is_deleted_once(api, photos):
    data = data_of(bulk(api, folderIds=[photos.empty.pk, photos.empty.pk]))
    assert len(data["deleted"]) == 1 and data["failed"] == []


def test_a_bulk_dry_run_counts_like_the_real_one_and_changes_nothing(api, org, photos):
    ids = [photos.year.pk, photos.photos.pk, photos.summer.pk]
    dry = data_of(bulk(api, folderIds=ids, force=True, dryRun=True))
    assert Folder.objects.live().count() == 4 and usage(org) == (1110, 3)
    real = data_of(bulk(api, folderIds=ids, force=True))
    assert dry["deleted"] == real["deleted"] and dry["failed"] == real["failed"]
    assert dry["totalFreedSpace"] == real["totalFreedSpace"] == 1110


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({}, "folderIds"),
        ({"folderIds": []}, "folderIds"),
        ({"folderIds": "fld_x"}, "folderIds"),
        ({"folderIds": [1]}, "folderIds"),
        ({"folderIds": [f"fld_{n}" for n in range(101)]}, "folderIds"),
        ({"folderIds": ["fld_x"], "force": "true"}, "force"),
        ({"folderIds": ["fld_x"], "recursive": None}, "recursive"),
        ({"folderIds": ["fld_x"], "dryRun": 1}, "dryRun"),
        ({"folderIds": ["fld_x"], "cascade": True}, "cascade"),
    ],
)
def test_a_bad_body_is_invalid_parameters_naming_the_field(api, body, named):
    error = error_of(bulk(api, **body), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == [named]


def test_bulk_deletion_needs_folders_write(client_for, org, photos):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    error_of(bulk(reader, folderIds=[photos.empty.pk]), 403, "ACCESS_DENIED")
    assert Folder.objects.live().count() == 4
