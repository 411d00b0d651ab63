from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from storage_service import clock
from storage_service.files.models import File
from storage_service.folders.models import Folder
from tests.storage.factories import ApiKeyFactory, FileFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of

pytestmark = pytest.mark.django_db

FIELDS = {"folderId", "name", "parentFolderId", "createdAt", "updatedAt"}
FIELDS |= {"deletedAt", "purgeAt", "files", "subfolders", "size"}


def trash(api, folder: Folder, *, ago: timedelta = timedelta(0), **flags: str) -> datetime:
    """Delete ``folder`` to the trash through the API, as if ``ago`` before now."""
    query = "&".join(f"{name}={value}" for name, value in {"force": "true", **flags}.items())
    data_of(api.delete(f"/v1/folders/{folder.pk}?{query}"))
    deleted_at = clock.now() - ago
    Folder.objects.filter(trash_root=folder).update(deleted_at=deleted_at)
    File.objects.filter(trash_root=folder).update(deleted_at=deleted_at)
    return deleted_at


def listing(api, **params) -> dict:
    return data_of(api.get("/v1/folders/trash", params))


def test_the_trash_lists_each_deleted_folder_newest_first_with_what_it_holds(api, photos):
    summer_at = trash(api, photos.summer, ago=timedelta(days=2))
    photos_at = trash(api, photos.photos, ago=timedelta(hours=1))
    items = listing(api)["folders"]
    assert [item["folderId"] for item in items] == [photos.photos.pk, photos.summer.pk]
    assert all(set(item) == FIELDS for item in items)
    first, second = items
    assert (first["name"], first["parentFolderId"]) == ("Photos", None)
    assert (second["name"], second["parentFolderId"]) == ("Summer", photos.year.pk)
    assert (first["files"], first["subfolders"], first["size"]) == (2, 2, 110)
    assert (second["files"], second["subfolders"], second["size"]) == (1, 0, 1000)
    assert first["deletedAt"] == clock.iso(photos_at)
    assert first["purgeAt"] == clock.iso(photos_at + timedelta(days=30))
    assert second["purgeAt"] == clock.iso(summer_at + timedelta(days=30))
    assert first["createdAt"] == clock.iso(photos.photos.created_at)


def test_the_counts_are_what_a_restore_brings_back(api, photos):
    trash(api, photos.year)
    (item,) = listing(api)["folders"]
    restored = data_of(api.post(f"/v1/folders/{photos.year.pk}/restore"))
    assert (item["files"], item["subfolders"]) == (
        restored["restoredFiles"],
        restored["restoredSubfolders"],
    )


def test_a_folder_deleted_alone_is_listed_empty(api, photos):
    trash(api, photos.year, recursive="false")
    (item,) = listing(api)["folders"]
    assert (item["folderId"], item["files"], item["subfolders"], item["size"]) == (
        photos.year.pk,
        0,
        0,
        0,
    )


def test_live_permanently_deleted_and_expired_folders_are_not_listed(api, org, photos):
    trash(api, photos.summer, ago=timedelta(days=30))
    trash(api, photos.empty, ago=timedelta(days=29, hours=23))
    org.folder_deletion = "permanent"
    org.save(update_fields=["folder_deletion"])
    data_of(api.delete(f"/v1/folders/{FolderFactory(organisation=org).pk}"))
    assert [item["folderId"] for item in listing(api)["folders"]] == [photos.empty.pk]
    assert data_of(api.post(f"/v1/folders/{photos.empty.pk}/restore"))


def test_only_the_callers_organisation_is_listed(api, client_for, photos):
    theirs = FolderFactory(name="Theirs")
    FileFactory(folder=theirs)
    their_api = client_for(ApiKeyFactory(organisation=theirs.organisation))
    trash(their_api, theirs)
    assert listing(api)["folders"] == []
    trash(api, photos.photos)
    assert [item["folderId"] for item in listing(api)["folders"]] == [photos.photos.pk]
    assert [item["folderId"] for item in listing(their_api)["folders"]] == [theirs.pk]


def test_a_restored_folder_leaves_the_list(api, photos):
    trash(api, photos.summer)
    trash(api, photos.photos)
    listed = [item["folderId"] for item in listing(api)["folders"]]
    assert listed == [photos.photos.pk, photos.summer.pk]
    data_of(api.post(f"/v1/folders/{listed[0]}/restore"))
    assert [item["folderId"] for item in listing(api)["folders"]] == [photos.summer.pk]
    live = data_of(api.get("/v1/folders", {"parentFolderId": "root"}))["folders"]
    assert [folder["folderId"] for folder in live] == [photos.photos.pk]


def test_the_trash_is_paginated_like_folders(api, org):
    folders = [FolderFactory(organisation=org, name=f"f{n}") for n in range(5)]
    for age, folder in enumerate(folders):
        trash(api, folder, ago=timedelta(minutes=age))
    page = listing(api, page=2, limit=2)
    assert [item["name"] for item in page["folders"]] == ["f2", "f3"]
    assert page["pagination"] == {
        "page": 2,
        "limit": 2,
        "total": 5,
        "totalPages": 3,
        "hasNext": True,
        "hasPrev": True,
    }
    assert listing(api)["pagination"]["limit"] == 20
    past_the_end = listing(api, page=4, limit=2)
    assert past_the_end["folders"] == [] and past_the_end["pagination"]["hasNext"] is False


def test_bad_page_parameters_are_invalid_parameters_naming_each(api):
    response = api.get("/v1/folders/trash", {"page": "0", "limit": "101"})
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert set(error["details"]) == {"page", "limit"}


def test_the_counts_cost_the_same_queries_for_one_item_or_many(api, org):
    for n in range(6):
        folder = FolderFactory(organisation=org, name=f"f{n}")
        FolderFactory(parent=folder)
        FileFactory(folder=folder, data=b"x" * n)
        trash(api, folder)
    listing(api)  # the key's lastUsedAt and the like, written once
    with CaptureQueriesContext(connection) as one:
        assert len(listing(api, limit=1)["folders"]) == 1
    with CaptureQueriesContext(connection) as six:
        items = listing(api, limit=6)["folders"]
    assert len(one.captured_queries) == len(six.captured_queries)
    assert sorted(item["size"] for item in items) == [0, 1, 2, 3, 4, 5]
    assert {(item["files"], item["subfolders"]) for item in items} == {(1, 1)}


def test_listing_the_trash_needs_folders_read(client_for, org):
    writer = client_for(ApiKeyFactory(organisation=org, permissions=["folders:write"]))
    error = error_of(writer.get("/v1/folders/trash"), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:read"}
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    assert data_of(reader.get("/v1/folders/trash/"))["folders"] == []


def test_the_trash_route_answers_only_get(api):
    error_of(api.post("/v1/folders/trash"), 405, "METHOD_NOT_ALLOWED")
    error_of(api.delete("/v1/folders/trash"), 405, "METHOD_NOT_ALLOWED")
