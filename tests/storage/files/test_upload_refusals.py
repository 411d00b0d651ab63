"""Uploads refused early: by their Content-Length before the body is read, or at a second file."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart

from storage_service.files.models import File
from tests.storage.envelope import error_of
from tests.storage.uploading import spill_files

pytestmark = pytest.mark.django_db


def test_a_body_longer_than_the_plan_allows_is_refused_before_it_is_read(api, settings):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "maxUploadSize": 1000}}
    body = encode_multipart("BoUnDaRy", {"file": SimpleUploadedFile("a.bin", b"x" * 10)})
    # The declared length is what counts: the test client's input refuses to be read past the
    # bytes it holds, so reading the body at all would fail this test.
    response = api.generic(
        "POST",
        "/v1/files/upload",
        body,
        content_type="multipart/form-data; boundary=BoUnDaRy",
        CONTENT_LENGTH=str(10 * 1024 * 1024),
    )
    error = error_of(response, 400)
    assert error["code"] == "FILE_TOO_LARGE"
    assert error["details"] == {"maxSize": 1000}
    assert not File.objects.exists()


def test_a_body_within_the_plans_size_is_read_as_usual(api, settings):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "maxUploadSize": 1000}}
    response = api.post(
        "/v1/files/upload", {"file": SimpleUploadedFile("a.bin", b"x" * 1000)}, format="multipart"
    )
    assert response.status_code == 200, response.content


def test_a_second_file_part_is_refused_and_neither_file_is_kept(api, media_root):
    body = encode_multipart(
        BOUNDARY,
        {"file": [SimpleUploadedFile("a.txt", b"first"), SimpleUploadedFile("b.txt", b"second")]},
    )
    response = api.generic("POST", "/v1/files/upload", body, content_type=MULTIPART_CONTENT)
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert "one file part" in error["details"]["file"]
    assert not File.objects.exists()
    assert spill_files(media_root) == []


def test_a_file_part_under_another_name_beside_file_is_refused(api, media_root):
    response = api.post(
        "/v1/files/upload",
        {"file": SimpleUploadedFile("a.txt", b"one"), "other": SimpleUploadedFile("b", b"two")},
        format="multipart",
    )
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert not File.objects.exists()
    assert spill_files(media_root) == []
