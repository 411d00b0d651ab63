from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core.management import call_command

from storage_service import clock
from storage_service.files.blobs import blob_store
from storage_service.uploads.assembly import data_blob_name
from storage_service.uploads.models import MultipartUpload, UploadPart
from storage_service.uploads.services import uploads_expire
from tests.storage.uploads.flows import data_of, error_of, put_part, uploaded

pytestmark = pytest.mark.django_db


def expire(upload_id: str) -> None:
    MultipartUpload.objects.filter(pk=upload_id).update(
        expires_at=clock.now() - timedelta(seconds=1)
    )


def part_names(upload: dict) -> list[str]:
    return [data_blob_name(upload["uploadId"])]


def test_expire_uploads_removes_the_parts_of_expired_uploads_only(api):
    expired, _ = uploaded(api, data_of(2500))
    still_open, _ = uploaded(api, data_of(2500))
    expire(expired["uploadId"])
    out = io.StringIO()
    call_command("expire_uploads", stdout=out)
    assert out.getvalue() == "Removed 3 parts (2500 bytes) of 1 expired or finished uploads.\n"
    assert not any(blob_store().exists(name) for name in part_names(expired))
    assert all(blob_store().exists(name) for name in part_names(still_open))
    assert not UploadPart.objects.filter(upload_id=expired["uploadId"]).exists()
    assert UploadPart.objects.filter(upload_id=still_open["uploadId"]).count() == 3
    upload = MultipartUpload.objects.get(pk=expired["uploadId"])
    assert upload.state_at(clock.now()) == "expired"


def test_an_expired_upload_takes_no_more_parts(api):
    upload, _ = uploaded(api, data_of(2048))
    expire(upload["uploadId"])
    error = error_of(put_part(api, upload["parts"][0]["url"], data_of(1024)), 404)
    assert error["code"] == "UPLOAD_NOT_FOUND"


def test_the_sweep_goes_by_the_time_it_is_given(api):
    upload, _ = uploaded(api, data_of(2048))
    assert uploads_expire(now=clock.now()).parts == 0
    sweep = uploads_expire(now=clock.now() + timedelta(hours=25))
    assert (sweep.uploads, sweep.parts, sweep.bytes) == (1, 2, 2048)
    assert not any(blob_store().exists(name) for name in part_names(upload))


def test_the_sweep_also_clears_parts_a_finished_upload_left_behind(api):
    """Parts are deleted after a complete or abort commits; a crash there leaves them behind."""
    upload, _ = uploaded(api, data_of(2048))
    MultipartUpload.objects.filter(pk=upload["uploadId"]).update(aborted_at=clock.now())
    assert uploads_expire(now=clock.now()).parts == 2
    assert not UploadPart.objects.exists()
    assert uploads_expire(now=clock.now()).parts == 0


def test_with_nothing_to_do_the_command_says_so():
    out = io.StringIO()
    call_command("expire_uploads", stdout=out)
    assert out.getvalue() == "Removed 0 parts (0 bytes) of 0 expired or finished uploads.\n"


def test_expire_uploads_also_removes_old_spill_files_only(settings):
    import os
    import time
    from pathlib import Path

    spill = Path(settings.FILE_UPLOAD_TEMP_DIR)
    old, fresh = spill / "tmp-old.upload", spill / "tmp-fresh.upload"
    old.write_bytes(b"left by a dead request")
    fresh.write_bytes(b"a request in flight")
    two_days_ago = time.time() - 2 * 86400
    os.utime(old, (two_days_ago, two_days_ago))
    out = io.StringIO()
    call_command("expire_uploads", stdout=out)
    assert "Removed 1 abandoned upload spill files." in out.getvalue()
    assert not old.exists() and fresh.exists()
