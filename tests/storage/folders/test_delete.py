from __future__ import annotations

from datetime import timedelta

import pytest

from storage_service import clock
from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.uploads.models import MultipartUpload
from tests.storage.factories import ApiKeyFactory, FileFactory, FolderFactory
from tests.storage.folders.helpers import data_of, error_of, stored, usage

pytestmark = pytest.mark.django_db


def open_upload(folder: Folder, **fields) -> MultipartUpload:
    return MultipartUpload.objects.create(
        **{
            "organisation": folder.organisation,
            "folder": folder,
            "name": "big.bin",
            "size": 10 * 1024 * 1024,
            "part_size": 5 * 1024 * 1024,
            "part_count": 2,
            "storage_name": f"{folder.organisation_id}/uploads/big.bin",
            "expires_at": clock.now() + timedelta(hours=1),
            **fields,
        }
    )


def live_ids(model) -> set[str]:
    return set(model.objects.live().values_list("pk", flat=True))


# --- errors -------------------------------------------------------------------------------------


def test_deleting_an_unknown_folder_is_folder_not_found(api):
    error = error_of(api.delete("/v1/folders/fld_missing"), 404, "FOLDER_NOT_FOUND")
    assert error["details"] == {"folderId": "fld_missing"}


def test_a_foreign_folder_answers_exactly_like_a_missing_one(api):
    foreign = FolderFactory()
    FileFactory(folder=foreign)
    missing = api.delete("/v1/folders/fld_missing?force=true").json()["error"]
    answer = api.delete(f"/v1/folders/{foreign.pk}?force=true").json()["error"]
    assert answer == {**missing, "details": {"folderId": foreign.pk}}
    assert Folder.objects.get(pk=foreign.pk).deleted_at is None


def test_files_anywhere_below_make_the_folder_not_empty_with_subtree_counts(api, org):
    top = FolderFactory(organisation=org)
    middle = FolderFactory(parent=top)
    FolderFactory(parent=middle)
    FolderFactory(parent=top, deleted_at=clock.now())  # already in the trash: not counted
    FileFactory(folder=FolderFactory(parent=middle))
    FileFactory(folder=middle)
    error = error_of(api.delete(f"/v1/folders/{top.pk}"), 400, "FOLDER_NOT_EMPTY")
    assert error["details"] == {"folderId": top.pk, "fileCount": 2, "subfolderCount": 3}
    assert error["message"] == "The folder contains files; pass force=true to delete them with it."
    assert Folder.objects.get(pk=top.pk).deleted_at is None


def test_a_tree_of_empty_folders_goes_without_force(api, org):
    top = FolderFactory(organisation=org)
    FolderFactory(parent=FolderFactory(parent=top))
    data = data_of(api.delete(f"/v1/folders/{top.pk}"))
    assert (data["deletedFiles"], data["deletedSubfolders"], data["freedSpace"]) == (0, 2, 0)
    assert not Folder.objects.live().exists()


def test_an_open_multipart_upload_into_a_subfolder_is_folder_in_use(api, photos):
    upload = open_upload(photos.summer)
    error = error_of(api.delete(f"/v1/folders/{photos.photos.pk}"), 400, "FOLDER_IN_USE")
    assert error["details"]["uploadIds"] == [upload.pk]
    assert error["details"]["reason"].endswith(".") and error["details"]["folderId"]
    # In use wins over not empty, and recursive=false is refused alike.
    error_of(api.delete(f"/v1/folders/{photos.photos.pk}?recursive=false"), 400, "FOLDER_IN_USE")
    assert Folder.objects.live().count() == 4


@pytest.mark.parametrize(
    "ended",
    [
        {"completed_at": clock.now()},
        {"aborted_at": clock.now()},
        {"expires_at": clock.now() - timedelta(minutes=1)},
    ],
)
def test_a_finished_aborted_or_expired_upload_does_not_hold_the_folder(api, photos, ended):
    open_upload(photos.summer, **ended)
    assert data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=true"))


def test_an_upload_elsewhere_does_not_hold_the_folder(api, org, photos):
    open_upload(FolderFactory(organisation=org))
    assert data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=1"))


def test_each_bad_flag_is_invalid_parameters_naming_it(api, photos):
    response = api.delete(f"/v1/folders/{photos.photos.pk}?force=yes&recursive=&dryRun=2")
    error = error_of(response, 400, "INVALID_PARAMETERS")
    assert set(error["details"]) == {"force", "recursive", "dryRun"}


def test_deleting_needs_folders_write(client_for, org, photos):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["folders:read"]))
    error = error_of(reader.delete(f"/v1/folders/{photos.photos.pk}"), 403, "ACCESS_DENIED")
    assert error["details"] == {"requiredPermission": "folders:write"}


# --- trash and permanent -----------------------------------------------------------------------


def test_trash_hides_the_subtree_keeps_the_bytes_and_frees_the_quota_at_once(api, org, photos):
    outside = FileFactory(organisation=org, data=b"o" * 7)
    assert usage(org) == (1117, 4)
    data = data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=true"))
    assert data == {
        "message": "Folder and its contents moved to the trash; restorable for 30 days.",
        "folderId": photos.photos.pk,
        "deletedFiles": 3,
        "deletedSubfolders": 3,
        "freedSpace": 1110,
        "deletedAt": data["deletedAt"],
    }
    assert usage(org) == (7, 1)
    assert live_ids(Folder) == set() and live_ids(File) == {outside.pk}
    trashed = Folder.objects.in_trash()
    assert trashed.count() == 4 and {f.trash_root_id for f in trashed} == {photos.photos.pk}
    assert set(File.objects.exclude(pk=outside.pk).values_list("trash_root", flat=True)) == {
        photos.photos.pk
    }
    assert stored(photos.notes, photos.a, photos.b) == [True, True, True]
    assert data_of(api.get("/v1/folders"))["folders"] == []
    error_of(api.get(f"/v1/folders/{photos.year.pk}"), 404, "FOLDER_NOT_FOUND")


def test_permanent_deletion_removes_rows_and_bytes_after_commit(
    api, org, photos, permanent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        data = data_of(api.delete(f"/v1/folders/{photos.year.pk}?force=true"))
    assert data["message"] == "Folder and its contents deleted permanently."
    assert (data["deletedFiles"], data["deletedSubfolders"], data["freedSpace"]) == (2, 2, 1100)
    assert usage(org) == (10, 1)
    assert list(Folder.objects.values_list("pk", flat=True)) == [photos.photos.pk]
    assert list(File.objects.values_list("pk", flat=True)) == [photos.notes.pk]
    assert stored(photos.notes, photos.a, photos.b) == [True, False, False]


def test_permanent_deletion_also_removes_what_was_already_in_the_trash_below(
    api, org, photos, permanent, django_capture_on_commit_callbacks
):
    old = FileFactory(folder=photos.summer, data=b"old", deleted_at=clock.now())
    Folder.objects.filter(pk=photos.empty.pk).update(deleted_at=clock.now())
    with django_capture_on_commit_callbacks(execute=True):
        data = data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=true"))
    assert (data["deletedFiles"], data["deletedSubfolders"], data["freedSpace"]) == (3, 2, 1110)
    assert usage(org) == (0, 0)
    assert not Folder.objects.exists() and not File.objects.exists()
    assert stored(old) == [False]


# --- dry run -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["trash", "permanent"])
def test_a_dry_run_answers_the_same_counts_and_changes_nothing(
    api, org, photos, mode, django_capture_on_commit_callbacks
):
    org.folder_deletion = mode
    org.save(update_fields=["folder_deletion"])
    url = f"/v1/folders/{photos.photos.pk}?force=true"
    with django_capture_on_commit_callbacks(execute=True):
        dry = data_of(api.delete(f"{url}&dryRun=true"))
    assert dry["message"].startswith("Dry run")
    assert usage(org) == (1110, 3)
    assert Folder.objects.live().count() == 4 and File.objects.live().count() == 3
    assert stored(photos.notes, photos.a, photos.b) == [True, True, True]
    with django_capture_on_commit_callbacks(execute=True):
        real = data_of(api.delete(url))
    for field in ["folderId", "deletedFiles", "deletedSubfolders", "freedSpace"]:
        assert dry[field] == real[field]


def test_a_dry_run_reports_the_same_errors(api, photos):
    url = f"/v1/folders/{photos.photos.pk}?dryRun=1"
    assert error_of(api.delete(url), 400, "FOLDER_NOT_EMPTY")["details"]["fileCount"] == 3
    open_upload(photos.empty)
    error_of(api.delete(url + "&force=1"), 400, "FOLDER_IN_USE")
    error_of(api.delete("/v1/folders/fld_missing?dryRun=1"), 404, "FOLDER_NOT_FOUND")


# --- recursive=false ---------------------------------------------------------------------------


def test_not_recursive_moves_files_and_subfolders_up_with_their_paths(api, org, photos):
    data = data_of(api.delete(f"/v1/folders/{photos.year.pk}?recursive=false"))
    assert data["message"] == (
        "Folder moved to the trash; its files and subfolders moved up to its parent."
    )
    assert (data["deletedFiles"], data["deletedSubfolders"], data["freedSpace"]) == (0, 0, 0)
    assert usage(org) == (1110, 3)
    summer, empty = Folder.objects.get(pk=photos.summer.pk), Folder.objects.get(pk=photos.empty.pk)
    assert summer.parent_id == empty.parent_id == photos.photos.pk
    assert summer.path == f"{photos.photos.path}{summer.pk}/"
    assert empty.path == f"{photos.photos.path}{empty.pk}/"
    assert File.objects.get(pk=photos.a.pk).folder_id == photos.photos.pk
    assert File.objects.get(pk=photos.b.pk).folder_id == summer.pk
    assert File.objects.live().count() == 3
    year = Folder.objects.get(pk=photos.year.pk)
    assert year.deleted_at is not None and year.trash_root_id == year.pk


def test_not_recursive_at_the_root_moves_the_contents_to_the_root(api, photos):
    data_of(api.delete(f"/v1/folders/{photos.photos.pk}?recursive=false"))
    year = Folder.objects.get(pk=photos.year.pk)
    summer = Folder.objects.get(pk=photos.summer.pk)
    assert year.parent_id is None and year.path == f"/{year.pk}/"
    assert summer.path == f"/{year.pk}/{summer.pk}/"
    assert File.objects.get(pk=photos.notes.pk).folder_id is None


def test_not_recursive_renames_a_moved_folder_whose_name_is_taken_above(api, org, photos):
    FolderFactory(organisation=org, name="2024")
    FolderFactory(organisation=org, name="2024 (2)")
    FolderFactory(parent=photos.photos, name="Photos")  # the deleted folder's own name is free
    data_of(api.delete(f"/v1/folders/{photos.photos.pk}?recursive=false"))
    root = data_of(api.get("/v1/folders", {"parentFolderId": "root"}))["folders"]
    assert sorted(f["name"] for f in root) == ["2024", "2024 (2)", "2024 (3)", "Photos"]
    assert Folder.objects.get(pk=photos.year.pk).name == "2024 (3)"


def test_a_subfolder_already_in_the_trash_moves_up_too_and_stays_restorable(api, org, photos):
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    data_of(api.delete(f"/v1/folders/{photos.year.pk}?recursive=false"))
    summer = Folder.objects.get(pk=photos.summer.pk)
    assert summer.parent_id == photos.photos.pk and summer.deleted_at is not None
    assert summer.path == f"{photos.photos.path}{summer.pk}/"
    assert data_of(api.post(f"/v1/folders/{summer.pk}/restore"))["restoredFiles"] == 1
    assert usage(org) == (1110, 3)


def test_a_dry_run_without_recursion_moves_nothing(api, photos):
    data_of(api.delete(f"/v1/folders/{photos.year.pk}?recursive=0&dryRun=true"))
    assert Folder.objects.get(pk=photos.summer.pk).parent_id == photos.year.pk
    assert Folder.objects.live().count() == 4


def test_not_recursive_in_permanent_mode_deletes_only_the_folder(
    api, org, photos, permanent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        data_of(api.delete(f"/v1/folders/{photos.photos.pk}?recursive=false"))
    assert not Folder.objects.filter(pk=photos.photos.pk).exists()
    assert Folder.objects.live().count() == 3 and File.objects.live().count() == 3
    assert stored(photos.notes, photos.a, photos.b) == [True, True, True]
    assert usage(org) == (1110, 3)
