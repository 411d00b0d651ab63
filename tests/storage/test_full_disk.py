"""A full disk: STORAGE_FULL (507), nothing of the upload kept, and the next upload that fits works.

MEDIA_ROOT and the spill directory sit on a real 20 MiB filesystem (tmpfs), mounted for each test;
where this process may not mount one (not root), the tests are skipped, except in CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from storage_service.files.models import File
from storage_service.uploads.models import UploadPart
from tests.storage.envelope import data_of, error_of
from tests.storage.uploading import spill_files
from tests.storage.uploads.flows import abort, complete, put_part, started

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024
DISK_SIZE = 20 * MIB


@pytest.fixture
def small_disk(settings, tmp_path) -> Path:
    """A 20 MiB filesystem holding MEDIA_ROOT and its spill directory."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK_SIZE}", "tmpfs", str(mount_point)],
        capture_output=True,
    )
    if mounted.returncode != 0:
        reason = f"cannot mount a small filesystem here: {mounted.stderr.decode().strip()}"
        # CI runs as root and can mount: there a skip would hide these tests, so it fails instead.
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    settings.MEDIA_ROOT = mount_point / "media"
    settings.FILE_UPLOAD_TEMP_DIR = str(mount_point / "media" / ".incoming")
    os.makedirs(settings.FILE_UPLOAD_TEMP_DIR)
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=True)


def used(disk: Path) -> int:
    return shutil.disk_usage(disk).used


def upload(api, size: int):
    content = SimpleUploadedFile("big.bin", os.urandom(size))
    return api.post("/v1/files/upload", {"file": content}, format="multipart")


def test_an_upload_larger_than_the_free_space_is_507_and_leaves_nothing(api, small_disk):
    error = error_of(upload(api, 30 * MIB), 507)
    assert error["code"] == "STORAGE_FULL"
    assert "nothing" in error["message"]
    assert spill_files(small_disk / "media") == []
    assert used(small_disk) < MIB
    assert not File.objects.exists()


def test_after_a_full_disk_the_next_upload_that_fits_succeeds(api, small_disk):
    error_of(upload(api, 30 * MIB), 507)
    for _ in range(3):  # the disk holds 20 MiB: each 5 MiB upload fits, one after another
        assert data_of(upload(api, 5 * MIB))["file"]["size"] == 5 * MIB
    assert File.objects.count() == 3
    assert spill_files(small_disk / "media") == []


def test_a_part_needs_only_its_own_size_of_free_space(api, small_disk):
    content = os.urandom(15 * MIB)
    started_upload = started(api, content, partSize=15 * MIB)
    answer = data_of(put_part(api, started_upload["parts"][0]["url"], content))
    parts = [{"partNumber": 1, "etag": answer["etag"]}]
    file = data_of(complete(api, started_upload["uploadId"], parts))["file"]
    assert file["size"] == 15 * MIB
    assert spill_files(small_disk / "media") == []


def test_a_part_that_does_not_fit_is_507_and_gives_its_space_back(
    api, small_disk, django_capture_on_commit_callbacks
):
    content = os.urandom(24 * MIB)
    started_upload = started(api, content, partSize=12 * MIB)
    first, second = (part["url"] for part in started_upload["parts"])
    data_of(put_part(api, first, content[: 12 * MIB]))
    before = used(small_disk)
    error = error_of(put_part(api, second, content[12 * MIB :]), 507)
    assert error["code"] == "STORAGE_FULL"
    assert used(small_disk) <= before + MIB  # what the failed part wrote was given back
    assert list(UploadPart.objects.values_list("part_number", flat=True)) == [1]
    assert spill_files(small_disk / "media") == []
    with django_capture_on_commit_callbacks(execute=True):
        data_of(abort(api, started_upload["uploadId"]))
    assert used(small_disk) < MIB
