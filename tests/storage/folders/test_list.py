from __future__ import annotations

import pytest

from tests.storage.factories import ApiKeyFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of

pytestmark = pytest.mark.django_db

TRASHED = "2026-01-01T00:00:00Z"


def names(data) -> list[str]:
    return [folder["name"] for folder in data["folders"]]


def test_list_shows_the_live_folders_of_the_callers_organisation_by_name(api, org, photos):
    FolderFactory(name="Foreign")
    FolderFactory(organisation=org, name="Gone", deleted_at=TRASHED)
    FolderFactory(organisation=org, name="Archive")
    data = data_of(api.get("/v1/folders"))
    assert names(data) == ["2024", "Archive", "Empty", "Photos", "Summer"]
    assert data["folders"][3] == {
        "folderId": photos.photos.pk,
        "name": "Photos",
        "parentFolderId": None,
        "createdAt": data["folders"][3]["createdAt"],
        "updatedAt": data["folders"][3]["updatedAt"],
    }


def test_folders_of_the_same_name_are_ordered_by_id(api, org):
    ids = sorted(FolderFactory(parent=FolderFactory(organisation=org), name="x").pk for _ in "ab")
    data = data_of(api.get("/v1/folders"))
    assert [f["folderId"] for f in data["folders"] if f["name"] == "x"] == ids


def test_list_is_paginated_like_files(api, org):
    for n in range(5):
        FolderFactory(organisation=org, name=f"f{n}")
    data = data_of(api.get("/v1/folders", {"page": 2, "limit": 2}))
    assert names(data) == ["f2", "f3"]
    assert data["pagination"] == {
        "page": 2,
        "limit": 2,
        "total": 5,
        "totalPages": 3,
        "hasNext": True,
        "hasPrev": True,
    }


def test_parent_folder_id_lists_the_direct_children(api, photos):
    data = data_of(api.get("/v1/folders", {"parentFolderId": photos.year.pk}))
    assert names(data) == ["Empty", "Summer"]
    assert {f["parentFolderId"] for f in data["folders"]} == {photos.year.pk}


def test_parent_folder_id_root_lists_the_top_level_folders(api, org, photos):
    FolderFactory(organisation=org, name="Archive")
    assert names(data_of(api.get("/v1/folders", {"parentFolderId": "root"}))) == [
        "Archive",
        "Photos",
    ]


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_an_unknown_trashed_or_foreign_parent_filter_is_folder_not_found(api, org, kind):
    parent_id = {
        "unknown": lambda: "fld_missing",
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=TRASHED).pk,
        "foreign": lambda: FolderFactory().pk,
    }[kind]()
    error = error_of(api.get("/v1/folders", {"parentFolderId": parent_id}), 404, "FOLDER_NOT_FOUND")
    assert error["details"] == {"folderId": parent_id}
    assert error["message"] == "No folder with this id."


def test_each_bad_parameter_is_named(api):
    response = api.get("/v1/folders", {"page": "0", "limit": "101", "parentFolderId": ""})
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert set(error["details"]) == {"page", "limit", "parentFolderId"}


def test_get_one_folder_answers_its_record(api, photos):
    folder = data_of(api.get(f"/v1/folders/{photos.year.pk}"))["folder"]
    assert folder["folderId"] == photos.year.pk
    assert folder["name"] == "2024" and folder["parentFolderId"] == photos.photos.pk


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_get_an_unknown_trashed_or_foreign_folder_is_the_same_not_found(api, org, kind):
    folder_id = {
        "unknown": lambda: "fld_missing",
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=TRASHED).pk,
        "foreign": lambda: FolderFactory().pk,
    }[kind]()
    error = error_of(api.get(f"/v1/folders/{folder_id}"), 404, "FOLDER_NOT_FOUND")
    assert error["message"] == "No folder with this id."
    assert error["details"] == {"folderId": folder_id}


def test_reading_needs_folders_read(client_for, org, photos):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    assert data_of(reader.get("/v1/folders"))
    assert data_of(reader.get(f"/v1/folders/{photos.photos.pk}"))
    files_only = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    error = error_of(files_only.get("/v1/folders"), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:read"}
    error_of(files_only.get(f"/v1/folders/{photos.photos.pk}"), 403, "ACCESS_DENIED")
