"""The storage series moves with every change to what an organisation stores, by file type."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Count, Sum

from storage_service import clock
from storage_service.accounts.models import Organisation
from storage_service.billing.models import StorageChange
from storage_service.files.models import File
from storage_service.folders import trash
from storage_service.folders.models import Folder
from tests.storage.uploading import upload_file
from tests.storage.uploads.flows import complete, data_of, put_parts, started

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 200


def upload(client, name: str, data: bytes, folder_id: str | None = None) -> dict:
    return upload_file(client, name, data, **({"folderId": folder_id} if folder_id else {}))


def series(org: Organisation) -> dict[str, tuple[int, int]]:
    rows = (
        StorageChange.objects.filter(organisation=org)
        .values("category")
        .annotate(size=Sum("bytes"), count=Sum("files"))
    )
    return {row["category"]: (row["size"], row["count"]) for row in rows if row["count"]}


def live(org: Organisation) -> dict[str, tuple[int, int]]:
    rows = (
        File.objects.filter(organisation=org, deleted_at__isnull=True)
        .values("category")
        .annotate(size=Sum("size"), count=Count("id"))
    )
    return {row["category"]: (row["size"], row["count"]) for row in rows}


def assert_series_matches(org: Organisation) -> None:
    org.refresh_from_db()
    levels = series(org)
    assert levels == live(org)
    assert sum(size for size, _ in levels.values()) == org.storage_used
    assert sum(count for _, count in levels.values()) == org.file_count


def folder(client, name: str) -> str:
    return client.post("/v1/folders", {"name": name}).json()["data"]["folder"]["folderId"]


def test_every_change_moves_the_series_by_file_type(api, org, settings):
    settings.MULTIPART_MIN_PART_SIZE = 1024
    upload(api, "a.png", PNG)
    notes = upload(api, "notes.txt", b"hello " * 50)
    upload(api, "song.mp3", b"ID3" + b"\x00" * 300)
    assert_series_matches(org)

    api.delete(f"/v1/files/{notes['id']}")
    assert_series_matches(org)

    trip = folder(api, "trip")
    upload(api, "b.png", PNG, trip)
    upload(api, "c.bin", data_of(700), trip)
    assert api.delete(f"/v1/folders/{trip}?force=true").status_code == 200
    assert_series_matches(org)
    assert "image" in series(org) and series(org)["image"][1] == 1

    assert api.post(f"/v1/folders/{trip}/restore").status_code == 200
    assert_series_matches(org)
    assert series(org)["image"][1] == 2

    data = data_of(2500)
    multipart = started(api, data, name="clip.mp4", partSize=1024)
    complete(api, multipart["uploadId"], put_parts(api, multipart, data))
    assert_series_matches(org)

    Organisation.objects.filter(pk=org.pk).update(folder_deletion="permanent")
    assert api.delete(f"/v1/folders/{trip}?force=true").status_code == 200
    assert_series_matches(org)


def test_a_refused_upload_moves_nothing(api, org, settings):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "storageLimit": 100}}
    response = api.post(
        "/v1/files/upload", {"file": SimpleUploadedFile("a.txt", b"x" * 101)}, format="multipart"
    )
    assert response.json()["error"]["code"] == "STORAGE_QUOTA_EXCEEDED"
    assert not StorageChange.objects.filter(organisation=org).exists()


def test_trash_purged_for_good_moves_nothing_more(api, org):
    trip = folder(api, "trip")
    upload(api, "a.txt", b"x" * 100, trip)
    api.delete(f"/v1/folders/{trip}?force=true")
    before = series(org)
    File.objects.filter(organisation=org).update(deleted_at=clock.now().replace(year=2000))
    Folder.objects.filter(organisation=org).update(deleted_at=clock.now().replace(year=2000))
    trash.trash_purge(now=clock.now())
    assert not File.objects.filter(organisation=org).exists()
    assert series(org) == before == {}
