from __future__ import annotations

from datetime import timedelta

import pytest

from storage_service import clock
from storage_service.files.models import File
from storage_service.folders.models import Folder
from tests.storage.factories import ApiKeyFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of, usage

pytestmark = pytest.mark.django_db


def delete(api, folder, **flags):
    query = "&".join(f"{name}={value}" for name, value in {"force": "true", **flags}.items())
    return data_of(api.delete(f"/v1/folders/{folder.pk}?{query}"))


def restore(api, folder_id):
    return api.post(f"/v1/folders/{folder_id}/restore")


def test_restore_brings_back_the_folder_its_subtree_and_their_quota(api, org, photos):
    delete(api, photos.photos)
    assert usage(org) == (0, 0)
    data = data_of(restore(api, photos.photos.pk))
    assert data["restoredFiles"] == 3 and data["restoredSubfolders"] == 3
    assert data["folder"]["folderId"] == photos.photos.pk
    assert data["folder"]["name"] == "Photos" and data["folder"]["parentFolderId"] is None
    assert usage(org) == (1110, 3)
    assert Folder.objects.live().count() == 4 and File.objects.live().count() == 3
    assert not Folder.objects.filter(trash_root__isnull=False).exists()
    assert not File.objects.filter(trash_root__isnull=False).exists()
    listed = data_of(api.get("/v1/folders", {"parentFolderId": photos.year.pk}))["folders"]
    assert [f["name"] for f in listed] == ["Empty", "Summer"]


def test_restore_on_day_29_works_and_after_30_days_is_folder_not_found(api, photos):
    delete(api, photos.summer)
    delete(api, photos.empty)
    Folder.objects.filter(pk=photos.summer.pk).update(
        deleted_at=clock.now() - timedelta(days=29, hours=23)
    )
    Folder.objects.filter(pk=photos.empty.pk).update(deleted_at=clock.now() - timedelta(days=30))
    assert data_of(restore(api, photos.summer.pk))["restoredFiles"] == 1
    error = error_of(restore(api, photos.empty.pk), 404, "FOLDER_NOT_FOUND")
    assert error["details"] == {"folderId": photos.empty.pk}


def test_only_the_folder_that_was_deleted_can_be_restored(api, photos):
    delete(api, photos.photos)
    error_of(restore(api, photos.year.pk), 404, "FOLDER_NOT_FOUND")
    assert not Folder.objects.live().exists()


@pytest.mark.parametrize("kind", ["live", "unknown", "foreign"])
def test_a_live_unknown_or_foreign_folder_cannot_be_restored(api, photos, kind):
    foreign = FolderFactory()
    Folder.objects.filter(pk=foreign.pk).update(deleted_at=clock.now(), trash_root=foreign.pk)
    folder_id = {"live": photos.photos.pk, "unknown": "fld_missing", "foreign": foreign.pk}[kind]
    error = error_of(restore(api, folder_id), 404, "FOLDER_NOT_FOUND")
    assert error["details"] == {"folderId": folder_id}
    assert Folder.objects.get(pk=foreign.pk).deleted_at is not None


def test_a_folder_whose_parent_is_in_the_trash_comes_back_at_the_root(api, org, photos):
    delete(api, photos.year)
    delete(api, photos.photos)
    data = data_of(restore(api, photos.year.pk))
    assert data["folder"]["parentFolderId"] is None
    assert (data["restoredFiles"], data["restoredSubfolders"]) == (2, 2)
    year, summer = Folder.objects.get(pk=photos.year.pk), Folder.objects.get(pk=photos.summer.pk)
    assert year.path == f"/{year.pk}/" and summer.path == f"/{year.pk}/{summer.pk}/"
    assert usage(org) == (1100, 2)
    assert Folder.objects.get(pk=photos.photos.pk).deleted_at is not None


def test_a_subfolder_deleted_on_its_own_stays_in_the_trash_when_its_parent_is_restored(api, photos):
    delete(api, photos.summer)
    delete(api, photos.photos)
    data = data_of(restore(api, photos.photos.pk))
    assert (data["restoredFiles"], data["restoredSubfolders"]) == (2, 2)
    assert Folder.objects.get(pk=photos.summer.pk).deleted_at is not None
    assert data_of(restore(api, photos.summer.pk))["folder"]["parentFolderId"] == photos.year.pk


def test_a_restored_folder_whose_name_was_taken_meanwhile_is_renamed(api, org, photos):
    delete(api, photos.photos)
    FolderFactory(organisation=org, name="Photos")
    assert data_of(restore(api, photos.photos.pk))["folder"]["name"] == "Photos (restored)"
    delete(api, photos.year)
    FolderFactory(parent=photos.photos, name="2024")
    FolderFactory(parent=photos.photos, name="2024 (restored)")
    assert data_of(restore(api, photos.year.pk))["folder"]["name"] == "2024 (restored 2)"


def test_a_restore_that_no_longer_fits_the_plan_is_storage_quota_exceeded(
    api, org, photos, settings
):
    delete(api, photos.photos)
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "storageLimit": 1000}}
    error = error_of(restore(api, photos.photos.pk), 403, "STORAGE_QUOTA_EXCEEDED")
    assert error["details"] == {"used": 0, "limit": 1000, "requested": 1110}
    assert not Folder.objects.live().exists() and usage(org) == (0, 0)


def test_a_folder_deleted_alone_comes_back_empty(api, photos):
    delete(api, photos.year, recursive="false")
    data = data_of(restore(api, photos.year.pk))
    assert (data["restoredFiles"], data["restoredSubfolders"]) == (0, 0)
    assert Folder.objects.get(pk=photos.summer.pk).parent_id == photos.photos.pk


def test_restoring_needs_folders_write(client_for, api, org, photos):
    delete(api, photos.photos)
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    error = error_of(restore(reader, photos.photos.pk), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:write"}
