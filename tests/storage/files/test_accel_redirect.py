"""Downloads behind nginx: the service checks the link and answers the headers, nginx sends bytes.

With ``DOWNLOAD_ACCEL_REDIRECT_PREFIX`` set, a download from the local disk is answered 200 with
an empty body and ``X-Accel-Redirect: <prefix><blob name>``; nginx applies any Range itself
(deploy/storage/nginx.conf). deploy/README.md tells how the same answers were checked through a
real nginx.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.models import Sum

from storage_service.billing import counting
from storage_service.billing.models import RequestRollup
from storage_service.files.models import File
from tests.storage.envelope import error_of
from tests.storage.files.downloading import DATA

pytestmark = pytest.mark.django_db

PREFIX = "/protected-media/"
TAG = f'"{hashlib.sha256(DATA).hexdigest()}"'
REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def behind_nginx(settings):
    settings.DOWNLOAD_ACCEL_REDIRECT_PREFIX = PREFIX


def download_bytes(org_id: str) -> int:
    counting.flush(org_id)
    rows = RequestRollup.objects.filter(organisation_id=org_id)
    return rows.aggregate(total=Sum("download_bytes"))["total"] or 0


def test_a_download_is_handed_to_nginx_with_the_headers_of_a_streamed_one(api, stored):
    response = api.get(stored["url"])
    file = File.objects.get(pk=stored["id"])
    assert response.status_code == 200
    assert not response.streaming
    assert response.content == b""
    assert response["X-Accel-Redirect"] == f"{PREFIX}{file.organisation_id}/{file.pk}"
    assert response["Content-Type"] == file.content_type
    assert response["Content-Disposition"] == 'attachment; filename="bytes.bin"'
    assert response["ETag"] == TAG
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Cache-Control"] == "private, max-age=0"
    assert "Last-Modified" in response


def test_the_redirect_names_the_blob_as_stored_under_the_media_root(api, stored, media_root):
    target = api.get(stored["url"])["X-Accel-Redirect"].removeprefix(PREFIX)
    assert (media_root / target).read_bytes() == DATA


def test_length_and_ranges_are_left_for_nginx_to_announce(api, stored):
    response = api.get(stored["url"])
    assert response["Content-Length"] == "0"  # the empty body's: nginx sets the file's
    assert "Accept-Ranges" not in response  # nginx's own would make it twice


def test_a_range_is_left_to_nginx(api, stored):
    response = api.get(stored["url"], HTTP_RANGE="bytes=0-9")
    assert response.status_code == 200
    assert "Content-Range" not in response
    assert response["X-Accel-Redirect"].startswith(PREFIX)


def test_an_unsatisfiable_range_is_still_416_in_the_envelope(api, stored):
    response = api.get(stored["url"], HTTP_RANGE="bytes=20000-")
    error = error_of(response, 416)
    assert error["code"] == "RANGE_NOT_SATISFIABLE"
    assert response["Content-Range"] == f"bytes */{len(DATA)}"
    assert "X-Accel-Redirect" not in response


def test_a_current_copy_is_still_304_from_the_service(api, stored):
    response = api.get(stored["url"], HTTP_IF_NONE_MATCH=TAG)
    assert response.status_code == 304
    assert "X-Accel-Redirect" not in response


def test_a_head_is_handed_over_too(api, stored):
    response = api.head(stored["url"])
    assert response.status_code == 200
    assert response["X-Accel-Redirect"].startswith(PREFIX)


def test_an_invalid_link_is_refused_before_anything_is_handed_over(api, stored):
    response = api.get(stored["url"] + "x")
    assert error_of(response, 403)["code"] == "ACCESS_DENIED"
    assert "X-Accel-Redirect" not in response


def test_the_bytes_asked_for_are_counted(client_for, org, stored):
    anyone = client_for(None)
    anyone.get(stored["url"])
    anyone.get(stored["url"], HTTP_RANGE="bytes=100-199")
    anyone.head(stored["url"])
    assert download_bytes(org.pk) == len(DATA) + 100


def test_without_the_prefix_the_bytes_are_streamed(api, stored, settings):
    settings.DOWNLOAD_ACCEL_REDIRECT_PREFIX = ""
    response = api.get(stored["url"], HTTP_RANGE="bytes=0-9")
    assert response.status_code == 206
    assert b"".join(response.streaming_content) == DATA[:10]
    assert "X-Accel-Redirect" not in response


@pytest.mark.parametrize("prefix", ["protected-media/", "/protected-media"])
def test_a_prefix_that_is_not_a_path_is_refused_at_start(prefix, tmp_path):
    environment = {
        "SECRET_KEY": "x",
        "VAR_DIR": str(tmp_path),
        "STORAGE_ACCEL_REDIRECT_PREFIX": prefix,
    }
    result = subprocess.run(
        [sys.executable, "-m", "storage_service", "check"],
        env={"PATH": "/usr/bin:/bin", **environment},
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "STORAGE_ACCEL_REDIRECT_PREFIX must start and end with /" in result.stderr
