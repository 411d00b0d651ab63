from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from storage_service import clock
from storage_service.files.models import File
from storage_service.folders import trash
from storage_service.folders.models import Folder
from tests.storage.factories import FileFactory, FolderFactory
from tests.storage.folders.helpers import data_of, stored, usage

pytestmark = pytest.mark.django_db


def days_ago(days: float):
    return clock.now() - timedelta(days=days)


def age(folder: Folder, days: float) -> None:
    """Move the trash deletion of ``folder`` ``days`` into the past."""
    Folder.objects.filter(trash_root=folder).update(deleted_at=days_ago(days))
    File.objects.filter(trash_root=folder).update(deleted_at=days_ago(days))


def purge(*args: str) -> str:
    out = StringIO()
    call_command("purge_trash", *args, stdout=out)
    return out.getvalue()


def test_purge_trash_deletes_rows_and_bytes_older_than_30_days(
    api, org, photos, django_capture_on_commit_callbacks
):
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=true"))
    age(photos.summer, 31)
    age(photos.photos, 30.5)
    with django_capture_on_commit_callbacks(execute=True):
        output = purge()
    assert output.startswith("Purged 4 folder(s) and 3 file(s), 1110 bytes, trashed on or before")
    assert output.count("\n") == 1
    assert not Folder.objects.exists() and not File.objects.exists()
    assert stored(photos.notes, photos.a, photos.b) == [False, False, False]
    assert usage(org) == (0, 0)


def test_purge_trash_keeps_live_and_recent_trash(
    api, org, photos, django_capture_on_commit_callbacks
):
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    age(photos.summer, 29)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge().startswith("Purged 0 folder(s) and 0 file(s), 0 bytes")
    assert Folder.objects.count() == 4 and File.objects.count() == 3
    assert stored(photos.b) == [True]
    assert data_of(api.post(f"/v1/folders/{photos.summer.pk}/restore"))["restoredFiles"] == 1


def test_purge_trash_days_sets_the_window(api, photos, django_capture_on_commit_callbacks):
    data_of(api.delete(f"/v1/folders/{photos.summer.pk}?force=true"))
    age(photos.summer, 8)
    with django_capture_on_commit_callbacks(execute=True):
        assert purge("--days", "7").startswith("Purged 1 folder(s) and 1 file(s), 1000 bytes")
    assert stored(photos.b) == [False]
    with pytest.raises(CommandError):
        purge("--days", "-1")


def test_purge_also_removes_a_file_trashed_on_its_own(org, django_capture_on_commit_callbacks):
    folder = FolderFactory(organisation=org)
    old = FileFactory(folder=folder, data=b"x" * 3, deleted_at=days_ago(40))
    recent = FileFactory(folder=folder, deleted_at=days_ago(1))
    with django_capture_on_commit_callbacks(execute=True):
        purged = trash.trash_purge(now=clock.now())
    assert (purged.folders, purged.files, purged.freed_space) == (0, 1, 3)
    assert list(File.objects.values_list("pk", flat=True)) == [recent.pk]
    assert stored(old, recent) == [False, True]
