from __future__ import annotations

import json
import multiprocessing
import threading
from datetime import timedelta

import pytest
from django.db import connections, transaction

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.folders.models import Folder
from storage_service.folders.tree import MAX_DEPTH
from storage_service.folders.updates import INTO_ITSELF
from tests.clients import race
from tests.storage.factories import DEFAULT_BYTES, ApiKeyFactory, FileFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of, usage

pytestmark = pytest.mark.django_db

DUPLICATE = "A folder with this name already exists here."
AN_HOUR_AGO = clock.now() - timedelta(hours=1)


def patch(api, folder_id: str, body):
    return api.patch(f"/v1/folders/{folder_id}", body, format="json")


def assert_paths_consistent(org: Organisation) -> None:
    """Every folder's path is its parent's path and its own id: no cycle, nothing stale."""
    folders = {folder.pk: folder for folder in Folder.objects.filter(organisation=org)}
    for folder in folders.values():
        above = folders[folder.parent_id].path if folder.parent_id else "/"
        assert folder.path == f"{above}{folder.pk}/", folder


def test_a_rename_answers_the_folder_record_and_sets_updated_at(api, photos):
    Folder.objects.filter(pk=photos.year.pk).update(updated_at=AN_HOUR_AGO)
    answer = data_of(patch(api, photos.year.pk, {"name": "2025"}))["folder"]
    assert set(answer) == {"folderId", "name", "parentFolderId", "createdAt", "updatedAt"}
    assert (answer["folderId"], answer["name"]) == (photos.year.pk, "2025")
    assert answer["parentFolderId"] == photos.photos.pk
    assert answer["updatedAt"] > clock.iso(AN_HOUR_AGO)
    assert answer["createdAt"] == clock.iso(photos.year.created_at)
    assert data_of(api.get(f"/v1/folders/{photos.year.pk}"))["folder"] == answer
    assert Folder.objects.get(pk=photos.year.pk).path == photos.year.path


def test_a_name_a_live_sibling_holds_is_invalid_parameters(api, org, photos):
    error = error_of(patch(api, photos.empty.pk, {"name": "Summer"}), 400, "INVALID_PARAMETERS")
    assert error["details"] == {"name": DUPLICATE}
    FolderFactory(organisation=org, name="Videos")
    error = error_of(patch(api, photos.photos.pk, {"name": "Videos"}), 400)
    assert error["details"] == {"name": DUPLICATE}
    assert Folder.objects.get(pk=photos.empty.pk).name == "Empty"


def test_its_own_name_another_case_and_a_trashed_siblings_name_are_free(api, org, photos):
    assert data_of(patch(api, photos.empty.pk, {"name": "Empty"}))["folder"]["name"] == "Empty"
    assert data_of(patch(api, photos.empty.pk, {"name": "summer"}))["folder"]["name"] == "summer"
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    assert data_of(patch(api, photos.empty.pk, {"name": "Summer"}))["folder"]["name"] == "Summer"


BAD_NAMES = ["", "   ", "a/b", "a\\b", "nul\x00", "line\nbreak", "sep\u2028", ".", ".."]
BAD_NAMES += ["x" * 256, 5, None, ["Photos"]]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_bad_name_is_invalid_parameters_naming_name(api, photos, name):
    error = error_of(patch(api, photos.year.pk, {"name": name}), 400, "INVALID_PARAMETERS")
    assert list(error["details"]) == ["name"]
    assert Folder.objects.get(pk=photos.year.pk).name == "2024"


def test_a_move_takes_the_subtree_and_its_files_along(api, org, photos):
    archive = FolderFactory(organisation=org, name="Archive")
    answer = data_of(patch(api, photos.year.pk, {"parentFolderId": archive.pk}))["folder"]
    assert answer["parentFolderId"] == archive.pk and answer["name"] == "2024"
    year = Folder.objects.get(pk=photos.year.pk)
    assert year.path == f"{archive.path}{year.pk}/"
    assert Folder.objects.get(pk=photos.summer.pk).path == f"{year.path}{photos.summer.pk}/"
    assert_paths_consistent(org)
    listed = data_of(api.get("/v1/folders", {"parentFolderId": archive.pk}))["folders"]
    assert [folder["folderId"] for folder in listed] == [year.pk]
    files = data_of(api.get("/v1/files", {"folderId": photos.summer.pk}))["files"]
    assert [file["id"] for file in files] == [photos.b.pk]
    deletion = data_of(api.delete(f"/v1/folders/{archive.pk}?force=true"))
    assert (deletion["deletedFiles"], deletion["deletedSubfolders"]) == (2, 3)


def test_null_moves_a_folder_to_the_root(api, org, photos):
    answer = data_of(patch(api, photos.summer.pk, {"parentFolderId": None}))["folder"]
    assert answer["parentFolderId"] is None
    assert Folder.objects.get(pk=photos.summer.pk).path == f"/{photos.summer.pk}/"
    listed = data_of(api.get("/v1/folders", {"parentFolderId": "root"}))["folders"]
    assert [folder["name"] for folder in listed] == ["Photos", "Summer"]
    assert_paths_consistent(org)


@pytest.mark.parametrize("into", ["photos", "year", "summer"])
def test_a_folder_cannot_move_into_itself_or_its_subtree(api, org, photos, into):
    response = patch(api, photos.photos.pk, {"parentFolderId": getattr(photos, into).pk})
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert error["details"] == {"parentFolderId": INTO_ITSELF}
    assert Folder.objects.get(pk=photos.photos.pk).parent_id is None
    assert_paths_consistent(org)


def test_a_move_beside_a_folder_of_the_same_name_is_invalid_parameters(api, org, photos):
    FolderFactory(organisation=org, name="2024")
    error = error_of(patch(api, photos.year.pk, {"parentFolderId": None}), 400)
    assert error["details"] == {"name": DUPLICATE}
    assert Folder.objects.get(pk=photos.year.pk).parent_id == photos.photos.pk
    assert_paths_consistent(org)


def test_a_rename_and_a_move_together_check_the_new_name_at_the_new_place(api, org, photos):
    FolderFactory(organisation=org, name="2024")
    body = {"name": "Summer", "parentFolderId": None}  # "Summer" is only taken where it was
    answer = data_of(patch(api, photos.year.pk, body))["folder"]
    assert (answer["name"], answer["parentFolderId"]) == ("Summer", None)
    assert_paths_consistent(org)


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_an_unknown_trashed_or_foreign_destination_is_the_same_folder_not_found(
    api, org, photos, kind
):
    parent_id = {
        "unknown": lambda: "fld_doesnotexist",
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=clock.now()).pk,
        "foreign": lambda: FolderFactory(name="Theirs").pk,
    }[kind]()
    error = error_of(patch(api, photos.year.pk, {"parentFolderId": parent_id}), 404)
    assert error == {
        "code": "FOLDER_NOT_FOUND",
        "message": "No folder with this id.",
        "details": {"folderId": parent_id},
    }
    assert Folder.objects.get(pk=photos.year.pk).parent_id == photos.photos.pk


def test_a_folder_in_the_trash_of_the_caller_is_a_destination_only_once_restored(api, photos):
    data_of(api.delete(f"/v1/folders/{photos.empty.pk}"))
    error_of(patch(api, photos.summer.pk, {"parentFolderId": photos.empty.pk}), 404)
    data_of(api.post(f"/v1/folders/{photos.empty.pk}/restore"))
    assert data_of(patch(api, photos.summer.pk, {"parentFolderId": photos.empty.pk}))


@pytest.mark.parametrize("kind", ["unknown", "trashed", "foreign"])
def test_an_unknown_trashed_or_foreign_folder_answers_like_a_missing_one(api, org, kind):
    folder = {
        "unknown": lambda: None,
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=clock.now()),
        "foreign": lambda: FolderFactory(name="Theirs"),
    }[kind]()
    folder_id = folder.pk if folder else "fld_doesnotexist"
    for body in [{"name": "Mine"}, {"parentFolderId": None}]:
        error = error_of(patch(api, folder_id, body), 404, "FOLDER_NOT_FOUND")
        assert error["details"] == {"folderId": folder_id}
    if folder is not None:
        folder.refresh_from_db()
        assert folder.name != "Mine"


def test_a_move_deeper_than_the_path_can_hold_is_invalid_parameters(api, org):
    chain = [None]
    for depth in range(MAX_DEPTH - 1):
        chain.append(FolderFactory(organisation=org, parent=chain[-1], name=f"level-{depth}"))
    top = FolderFactory(organisation=org, name="top")
    FolderFactory(parent=top, name="child")
    response = patch(api, top.pk, {"parentFolderId": chain[-1].pk})  # the child would be too deep
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert set(error["details"]) == {"parentFolderId"}
    assert_paths_consistent(org)
    assert data_of(patch(api, top.pk, {"parentFolderId": chain[-2].pk}))  # the deepest allowed
    assert_paths_consistent(org)


def test_a_subfolder_in_the_trash_moves_along_and_restores_into_the_new_place(api, org, photos):
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    archive = FolderFactory(organisation=org, name="Archive")
    data_of(patch(api, photos.photos.pk, {"parentFolderId": archive.pk}))
    assert_paths_consistent(org)
    restored = data_of(api.post(f"/v1/folders/{photos.summer.pk}/restore"))["folder"]
    assert restored["parentFolderId"] == photos.year.pk
    summer = Folder.objects.get(pk=photos.summer.pk)
    assert summer.path.startswith(archive.path) and summer.deleted_at is None


def test_usage_and_quota_are_unchanged(api, org, photos):
    before = usage(org)
    data_of(patch(api, photos.year.pk, {"name": "Moved", "parentFolderId": None}))
    assert usage(org) == before == (1110, 3)


def test_unknown_fields_are_invalid_parameters(api, photos):
    response = patch(api, photos.year.pk, {"name": "x", "folderId": None, "colour": "red"})
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert error["details"] == {"colour": "Unknown field.", "folderId": "Unknown field."}


@pytest.mark.parametrize("body", [{}, None, [], "name"])
def test_an_empty_or_non_object_body_is_invalid_parameters(api, photos, body):
    response = api.patch(
        f"/v1/folders/{photos.year.pk}", json.dumps(body), content_type="application/json"
    )
    assert list(error_of(response, 400, "INVALID_PARAMETERS")["details"]) == ["body"]


@pytest.mark.parametrize("parent_id", ["", "x" * 65, 7, ["fld_a"], {"id": "fld_a"}])
def test_a_parent_id_that_is_not_an_id_is_invalid_parameters(api, photos, parent_id):
    error = error_of(patch(api, photos.year.pk, {"parentFolderId": parent_id}), 400)
    assert list(error["details"]) == ["parentFolderId"]


def test_updating_needs_folders_write(client_for, org, photos):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    error = error_of(patch(reader, photos.year.pk, {"name": "x"}), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:write"}
    writer = client_for(ApiKeyFactory(organisation=org, permissions=["folders:write"]))
    assert data_of(patch(writer, photos.year.pk, {"name": "x"}))["folder"]["name"] == "x"


@pytest.mark.django_db(transaction=True)
def test_crossing_moves_at_once_never_make_a_cycle(org, admin_key):
    pairs = [(FolderFactory(organisation=org), FolderFactory(organisation=org)) for _ in range(3)]
    calls = []
    for a, b in pairs:
        calls += [
            ("patch", f"/v1/folders/{a.pk}", {"parentFolderId": b.pk}),
            ("patch", f"/v1/folders/{b.pk}", {"parentFolderId": a.pk}),
        ]
    outcomes = race(admin_key.secret, calls)
    for a, b in pairs:
        statuses = sorted(status for path, status, _ in outcomes if path.endswith((a.pk, b.pk)))
        assert statuses[0] == 200 and statuses[1] == 400, outcomes
    refusals = [body["error"] for _, status, body in outcomes if status == 400]
    assert {error["code"] for error in refusals} <= {"INVALID_PARAMETERS", "FOLDER_IN_USE"}
    assert_paths_consistent(org)


@pytest.mark.django_db(transaction=True)
def test_renames_and_creations_racing_for_one_name_give_it_to_one(org, admin_key):
    parent = FolderFactory(organisation=org)
    folders = [FolderFactory(parent=parent) for _ in range(3)]
    calls = [("patch", f"/v1/folders/{folder.pk}", {"name": "Same"}) for folder in folders]
    calls += [("post", "/v1/folders", {"name": "Same", "parentFolderId": parent.pk})] * 3
    outcomes = race(admin_key.secret, calls)
    assert sorted(status for _, status, _ in outcomes) == [200] + [400] * 5, outcomes
    refusals = [body["error"] for _, status, body in outcomes if status == 400]
    assert {(error["code"], error["details"].get("name")) for error in refusals} <= {
        ("INVALID_PARAMETERS", DUPLICATE),
        ("FOLDER_IN_USE", None),
    }
    assert Folder.objects.filter(name="Same").count() == 1


@pytest.mark.django_db(transaction=True)
def test_creations_racing_the_move_of_their_parent_get_the_new_path(org, admin_key):
    top = FolderFactory(organisation=org, name="Top")
    sub = FolderFactory(parent=top, name="Sub")
    FileFactory(folder=sub)
    archive = FolderFactory(organisation=org, name="Archive")
    calls = [("patch", f"/v1/folders/{top.pk}", {"parentFolderId": archive.pk})]
    calls += [
        ("post", "/v1/folders", {"name": f"new-{n}", "parentFolderId": sub.pk}) for n in "abcd"
    ]
    outcomes = race(admin_key.secret, calls)
    move = next(body for path, _, body in outcomes if path.startswith("/v1/folders/fld"))
    assert move["success"] or move["error"]["code"] == "FOLDER_IN_USE", move
    assert {status for path, status, _ in outcomes if path == "/v1/folders"} == {200}
    assert_paths_consistent(org)
    assert usage(org) == (len(DEFAULT_BYTES), 1)


def _create_and_hold(parent_id: str, name: str, inserted, release) -> None:
    with transaction.atomic():
        parent = Folder.objects.get(pk=parent_id)
        FolderFactory(parent=parent, name=name)
        inserted.set()
        release.wait(timeout=30)
    connections.close_all()


@pytest.mark.django_db(transaction=True)
def test_a_rename_to_a_name_a_creation_takes_meanwhile_is_invalid_parameters(org, client_for):
    """PostgreSQL: the rename's check cannot see the uncommitted folder, so the unique index
    stops it once the creation commits. SQLite: the rename waits for the other writer first."""
    parent = FolderFactory(organisation=org)
    folder = FolderFactory(parent=parent, name="Mine")
    api = client_for(ApiKeyFactory(organisation=org))
    connections.close_all()  # the child must not share the parent's connection
    context = multiprocessing.get_context("fork")
    inserted, release = context.Event(), context.Event()
    holder = context.Process(target=_create_and_hold, args=(parent.pk, "Same", inserted, release))
    holder.start()
    assert inserted.wait(timeout=30)
    threading.Timer(1.0, release.set).start()  # the creation commits a second later
    try:
        response = patch(api, folder.pk, {"name": "Same"})
    finally:
        release.set()
        holder.join(timeout=30)
    assert error_of(response, 400, "INVALID_PARAMETERS")["details"] == {"name": DUPLICATE}
    assert Folder.objects.get(pk=folder.pk).name == "Mine"
