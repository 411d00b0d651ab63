from __future__ import annotations

import pytest

from storage_service.folders.models import Folder
from storage_service.folders.tree import MAX_DEPTH
from tests.storage.factories import ApiKeyFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of

pytestmark = pytest.mark.django_db

DUPLICATE = "A folder with this name already exists here."


def test_create_at_the_root_answers_the_folder_record(api, org):
    folder = data_of(api.post("/v1/folders", {"name": "Photos"}))["folder"]
    assert set(folder) == {"folderId", "name", "parentFolderId", "createdAt", "updatedAt"}
    assert folder["folderId"].startswith("fld_")
    assert folder["name"] == "Photos" and folder["parentFolderId"] is None
    assert folder["createdAt"].endswith("Z") and folder["updatedAt"] == folder["createdAt"]
    stored = Folder.objects.get(pk=folder["folderId"])
    assert stored.organisation == org and stored.path == f"/{stored.pk}/"


def test_create_under_a_parent_extends_the_parents_path(api, org):
    parent = FolderFactory(organisation=org)
    folder = data_of(api.post("/v1/folders/", {"name": "2024", "parentFolderId": parent.pk}))
    child = Folder.objects.get(pk=folder["folder"]["folderId"])
    assert folder["folder"]["parentFolderId"] == parent.pk
    assert child.parent == parent and child.path == f"{parent.path}{child.pk}/"


def test_a_name_taken_by_a_live_sibling_is_invalid_parameters(api, org):
    parent = FolderFactory(organisation=org)
    FolderFactory(parent=parent, name="2024")
    FolderFactory(organisation=org, name="Photos")
    response = api.post("/v1/folders", {"name": "2024", "parentFolderId": parent.pk})
    assert error_of(response, 400, "INVALID_PARAMETERS")["details"] == {"name": DUPLICATE}
    response = api.post("/v1/folders", {"name": "Photos"})
    assert error_of(response, 400, "INVALID_PARAMETERS")["details"] == {"name": DUPLICATE}


def test_a_name_is_free_under_another_parent_in_another_case_and_once_trashed(api, org, client_for):
    parent = FolderFactory(organisation=org)
    FolderFactory(organisation=org, name="Photos")
    FolderFactory(organisation=org, name="Old", deleted_at="2026-01-01T00:00:00Z")
    assert data_of(api.post("/v1/folders", {"name": "Photos", "parentFolderId": parent.pk}))
    assert data_of(api.post("/v1/folders", {"name": "photos"}))
    assert data_of(api.post("/v1/folders", {"name": "Old"}))
    other_org = client_for(ApiKeyFactory())
    assert data_of(other_org.post("/v1/folders", {"name": "Photos"}))


BAD_NAMES = ["", "   ", "a/b", "a\\b", "nul\x00", "tab\there", "line\nbreak", "sep\u2028", "."]
BAD_NAMES += ["..", "x" * 256, 5, None, ["Photos"]]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_is_invalid_parameters_naming_name(api, name):
    error = error_of(api.post("/v1/folders", {"name": name}), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == ["name"]
    assert not Folder.objects.exists()


@pytest.mark.parametrize("name", ["x" * 255, " leading space", "...", "Fotos 📷 ü", "a.b"])
def test_unusual_but_valid_names_are_accepted(api, name):
    assert data_of(api.post("/v1/folders", {"name": name}))["folder"]["name"] == name


def test_a_missing_name_and_a_bad_parent_id_are_both_named(api):
    error = error_of(api.post("/v1/folders", {"parentFolderId": 7}), 400, "INVALID_PARAMETERS")
    assert set(error["details"]) == {"name", "parentFolderId"}


def test_unknown_fields_are_invalid_parameters(api):
    response = api.post("/v1/folders", {"name": "Photos", "colour": "red"})
    assert error_of(response, 400, "INVALID_PARAMETERS")["details"] == {"colour": "Unknown field."}


def test_a_null_parent_means_the_root(api):
    folder = data_of(api.post("/v1/folders", {"name": "Photos", "parentFolderId": None}))
    assert folder["folder"]["parentFolderId"] is None


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_an_unknown_trashed_or_foreign_parent_is_the_same_folder_not_found(api, org, kind):
    parent_id = {
        "unknown": lambda: "fld_doesnotexist",
        "trashed": lambda: FolderFactory(organisation=org, deleted_at="2026-01-01T00:00Z").pk,
        "foreign": lambda: FolderFactory().pk,
    }[kind]()
    response = api.post("/v1/folders", {"name": "x", "parentFolderId": parent_id})
    error = error_of(response, 404, "FOLDER_NOT_FOUND")
    assert error == {
        "code": "FOLDER_NOT_FOUND",
        "message": "No folder with this id.",
        "details": {"folderId": parent_id},
    }


def test_nesting_deeper_than_the_path_can_hold_is_invalid_parameters(api, org):
    parent = None
    for depth in range(MAX_DEPTH):
        parent = FolderFactory(organisation=org, parent=parent, name=f"level-{depth}")
    assert len(parent.path) <= Folder._meta.get_field("path").max_length
    response = api.post("/v1/folders", {"name": "too deep", "parentFolderId": parent.pk})
    assert set(error_of(response, 400, "INVALID_PARAMETERS")["details"]) == {"parentFolderId"}


def test_creating_needs_folders_write(client_for, org):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    error = error_of(reader.post("/v1/folders", {"name": "x"}), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:write"}
    writer = client_for(ApiKeyFactory(organisation=org, permissions=["folders:write"]))
    assert data_of(writer.post("/v1/folders", {"name": "x"}))
