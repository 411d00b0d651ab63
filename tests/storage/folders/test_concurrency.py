"""Several processes, like gunicorn workers, racing on one organisation's folders."""

from __future__ import annotations

import multiprocessing
import threading

import pytest
from django.db import connection, connections, transaction

from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.folders.services import BUSY
from tests.clients import race
from tests.storage.factories import FileFactory, FolderFactory
from tests.storage.folders.helpers import usage

pytestmark = pytest.mark.django_db(transaction=True)


def build_tree(org) -> tuple[Folder, Folder]:
    top = FolderFactory(organisation=org, name="Top")
    sub = FolderFactory(parent=top, name="Sub")
    for folder, sizes in [(top, [1, 2]), (sub, [40, 300]), (FolderFactory(parent=sub), [5000])]:
        for size in sizes:
            FileFactory(folder=folder, data=b"x" * size)
    return top, sub


def test_concurrent_deletions_of_one_folder_succeed_once_and_free_its_bytes_once(org, admin_key):
    top, _ = build_tree(org)
    path = f"/v1/folders/{top.pk}?force=true"
    outcomes = race(admin_key.secret, [("delete", path, None)] * 4)
    statuses = sorted(status for _, status, _ in outcomes)
    assert statuses == [200, 404, 404, 404]
    winner = next(body["data"] for _, status, body in outcomes if status == 200)
    assert (winner["deletedFiles"], winner["deletedSubfolders"], winner["freedSpace"]) == (
        5,
        2,
        5343,
    )
    losers = [body["error"]["code"] for _, status, body in outcomes if status == 404]
    assert losers == ["FOLDER_NOT_FOUND"] * 3
    assert usage(org) == (0, 0)
    assert not File.objects.live().exists() and not Folder.objects.live().exists()


def test_concurrent_deletions_of_a_folder_and_its_subfolder_free_each_byte_once(org, admin_key):
    top, sub = build_tree(org)
    outcomes = race(
        admin_key.secret,
        [
            ("delete", f"/v1/folders/{top.pk}?force=true", None),
            ("delete", f"/v1/folders/{sub.pk}?force=true", None),
        ],
    )
    freed = sum(body["data"]["freedSpace"] for _, status, body in outcomes if status == 200)
    assert freed == 5343
    assert usage(org) == (0, 0)
    assert set(Folder.objects.values_list("trash_root", flat=True)) <= {top.pk, sub.pk}


def test_concurrent_creations_of_one_name_make_one_folder(org, admin_key):
    parent = FolderFactory(organisation=org)
    calls = [("post", "/v1/folders", {"name": "Same", "parentFolderId": parent.pk})] * 4
    calls += [("post", "/v1/folders", {"name": "Same"})] * 4
    outcomes = race(admin_key.secret, calls)
    assert sorted(status for _, status, _ in outcomes) == [200] * 2 + [400] * 6
    errors = [body["error"] for _, status, body in outcomes if status == 400]
    assert {error["details"]["name"] for error in errors} == {
        "A folder with this name already exists here."
    }
    assert Folder.objects.filter(name="Same").count() == 2


def assert_consistent(org) -> None:
    """Nothing live inside the trash, and the quota counts exactly the live files."""
    assert not Folder.objects.live().filter(parent__deleted_at__isnull=False).exists()
    assert not File.objects.live().filter(folder__deleted_at__isnull=False).exists()
    live = File.objects.live().filter(organisation=org)
    assert usage(org) == (sum(live.values_list("size", flat=True)), live.count())


def test_creations_racing_the_deletion_of_their_parent_never_land_in_the_trash(org, admin_key):
    top, sub = build_tree(org)
    calls = [("delete", f"/v1/folders/{top.pk}?force=true", None)]
    calls += [
        ("post", "/v1/folders", {"name": f"new-{n}", "parentFolderId": sub.pk}) for n in "abc"
    ]
    outcomes = race(admin_key.secret, calls)
    deletion = next(body for path, _, body in outcomes if path.startswith("/v1/folders/fld"))
    assert deletion["success"] or deletion["error"]["code"] == "FOLDER_IN_USE"
    assert {status for path, status, _ in outcomes if path == "/v1/folders"} <= {200, 404}
    assert_consistent(org)


@pytest.mark.parametrize("mode", ["trash", "permanent"])
def test_file_deletions_racing_their_folders_deletion_never_deadlock(org, admin_key, mode):
    org.folder_deletion = mode
    org.save(update_fields=["folder_deletion"])
    top, _ = build_tree(org)
    calls = [("delete", f"/v1/folders/{top.pk}?force=true", None)]
    calls += [
        ("delete", f"/v1/files/{pk}", None) for pk in File.objects.values_list("pk", flat=True)
    ]
    outcomes = race(admin_key.secret, calls)
    assert all(status in {200, 400, 404} for _, status, _ in outcomes), outcomes
    for _, status, body in outcomes:
        if status == 400:
            assert body["error"]["code"] == "FOLDER_IN_USE"
    assert_consistent(org)


def _hold_row_lock(file_id: str, locked, release) -> None:
    with transaction.atomic():
        File.objects.select_for_update().get(pk=file_id)
        locked.set()
        release.wait(timeout=30)
    connections.close_all()


def test_a_file_locked_by_another_operation_never_breaks_the_deletion(org, admin_key, client_for):
    """PostgreSQL: FOLDER_IN_USE at once (NOWAIT). SQLite, which locks the whole database: the
    deletion waits for the other writer (busy timeout) and then succeeds."""
    top, sub = build_tree(org)
    file_id = File.objects.filter(folder=sub).first().pk
    connections.close_all()  # the child must not share the parent's connection
    context = multiprocessing.get_context("fork")
    locked, release = context.Event(), context.Event()
    holder = context.Process(target=_hold_row_lock, args=(file_id, locked, release))
    holder.start()
    assert locked.wait(timeout=30)
    waiting = connection.vendor == "sqlite"
    if waiting:
        threading.Timer(1.0, release.set).start()  # the other writer finishes a second later
    try:
        response = client_for(admin_key).delete(f"/v1/folders/{top.pk}?force=true")
    finally:
        release.set()
        holder.join(timeout=30)
    if waiting:
        assert response.status_code == 200, response.content
        assert response.json()["data"]["deletedFiles"] == 5
        assert usage(org) == (0, 0) and Folder.objects.live().count() == 0
        return
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "FOLDER_IN_USE" and error["details"]["reason"] == BUSY
    assert usage(org) == (5343, 5) and Folder.objects.live().count() == 3
