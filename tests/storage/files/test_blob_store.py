"""The blob store's interface, held to the same behaviour on the local disk and in an object store.

``store`` is the store ``blob_store()`` answers for the settings: the local disk under each test's
own MEDIA_ROOT, or a fresh bucket on moto's S3 server. No test mocks the store.
"""

from __future__ import annotations

import io
import os
import urllib.request

import boto3
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from shared import readiness
from storage_service.files.blobs import CHUNK_SIZE, BlobStore, blob_store
from storage_service.files.blobs.local import LocalBlobStore
from storage_service.files.blobs.s3 import S3BlobStore

DATA = os.urandom(2 * CHUNK_SIZE + 123)


@pytest.fixture(params=["local", "s3"])
def store(request) -> BlobStore:
    if request.param == "s3":
        request.getfixturevalue("s3_bucket")
    return blob_store()


@pytest.fixture
def s3_store(s3_bucket) -> S3BlobStore:
    store = blob_store()
    assert isinstance(store, S3BlobStore)
    return store


@pytest.fixture
def local_store() -> LocalBlobStore:
    store = blob_store()
    assert isinstance(store, LocalBlobStore)
    return store


def test_the_store_follows_the_default_storage(request, store):
    kind = request.node.callspec.params["store"]
    assert type(store) is {"local": LocalBlobStore, "s3": S3BlobStore}[kind]
    assert blob_store() is store  # made once for the storage it wraps


def test_a_saved_blob_streams_back_byte_identical_in_chunks(store):
    store.save("org/file", io.BytesIO(DATA))
    chunks = list(store.chunks("org/file"))
    assert b"".join(chunks) == DATA
    assert max(len(chunk) for chunk in chunks) <= CHUNK_SIZE


def test_an_uploaded_file_is_saved_under_exactly_its_name(store):
    store.save("org/upload", SimpleUploadedFile("ignored.bin", b"uploaded bytes"))
    with store.open("org/upload") as stream:
        assert stream.read() == b"uploaded bytes"


def test_head_is_the_first_bytes(store):
    store.save("org/file", io.BytesIO(DATA))
    assert store.head("org/file", 10) == DATA[:10]
    assert store.head("org/file", CHUNK_SIZE + 1) == DATA[: CHUNK_SIZE + 1]


def test_head_of_a_short_blob_is_all_of_it(store):
    store.save("org/short", io.BytesIO(b"tiny"))
    assert store.head("org/short", 64 * 1024) == b"tiny"


def test_delete_removes_the_blob_and_a_missing_one_is_fine(store):
    store.save("org/file", io.BytesIO(b"bye"))
    assert store.exists("org/file")
    store.delete("org/file")
    assert not store.exists("org/file")
    store.delete("org/file")


def test_delete_many_removes_the_named_blobs_and_no_other(store):
    for name in ["org/a", "org/b", "org/c"]:
        store.save(name, io.BytesIO(name.encode()))
    store.delete_many(["org/a", "org/c", "org/never-saved"])
    assert [store.exists(name) for name in ["org/a", "org/b", "org/c"]] == [False, True, False]


def test_readiness_is_not_configured_on_the_disk_and_ok_for_a_reachable_bucket(request, store):
    kind = request.node.callspec.params["store"]
    assert store.readiness() == {"local": readiness.NOT_CONFIGURED, "s3": readiness.OK}[kind]


def test_readiness_is_unreachable_for_a_bucket_that_is_gone(s3_bucket, settings):
    default = settings.STORAGES["default"]
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {**default, "OPTIONS": {**default["OPTIONS"], "bucket_name": "gone"}},
    }
    assert blob_store().readiness() == readiness.UNREACHABLE


def test_the_local_store_has_no_url_of_its_own(local_store):
    local_store.save("org/file", io.BytesIO(b"bytes"))
    url = local_store.download_url(
        "org/file", content_type="text/plain", disposition="attachment", expire=60
    )
    assert url is None


def test_the_object_stores_url_serves_the_bytes_with_the_headers(s3_store):
    s3_store.save("org/file", io.BytesIO(b"0123456789"))
    url = s3_store.download_url(
        "org/file",
        content_type="text/plain",
        disposition='attachment; filename="digits.txt"',
        expire=60,
    )
    assert url is not None
    with urllib.request.urlopen(url) as response:  # noqa: S310 - the test's own server
        assert response.read() == b"0123456789"
        assert response.headers["Content-Type"] == "text/plain"
        assert response.headers["Content-Disposition"] == 'attachment; filename="digits.txt"'


def test_local_saves_and_moves_flush_the_directory(local_store, settings, monkeypatch, tmp_path):
    settings.FILE_FSYNC = True
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    local_store.save("org/saved", io.BytesIO(b"saved"))
    assert len(synced) == 1
    spilled = tmp_path / "spilled"
    spilled.write_bytes(b"moved")
    local_store.move_in(str(spilled), "org/moved")
    assert len(synced) == 2
    assert not spilled.exists()
    assert b"".join(local_store.chunks("org/moved")) == b"moved"


def test_local_saves_skip_the_flush_when_fsync_is_off(local_store, settings, monkeypatch):
    settings.FILE_FSYNC = False
    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", synced.append)
    local_store.save("org/saved", io.BytesIO(b"saved"))
    assert synced == []


def test_a_local_directory_is_deleted_with_all_it_holds(local_store):
    local_store.save("uploads/u1/data", io.BytesIO(b"part"))
    local_store.delete_directory("uploads/u1")
    assert not os.path.exists(local_store.path("uploads/u1"))
    local_store.delete_directory("uploads/u1")  # already gone


def test_the_object_stores_multipart_upload_joins_its_parts(s3_store, s3_endpoint, s3_bucket):
    upload_id = s3_store.multipart_start("org/joined")
    etag = s3_store.multipart_put(
        "org/joined", upload_id=upload_id, part_number=1, body=io.BytesIO(b"one part"), size=8
    )
    s3_store.multipart_join("org/joined", upload_id=upload_id, etags=[etag])
    assert b"".join(s3_store.chunks("org/joined")) == b"one part"
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    assert client.list_multipart_uploads(Bucket=s3_bucket).get("Uploads", []) == []


def test_aborting_the_object_stores_multipart_upload_twice_is_fine(
    s3_store, s3_endpoint, s3_bucket
):
    upload_id = s3_store.multipart_start("org/dropped")
    s3_store.multipart_put(
        "org/dropped", upload_id=upload_id, part_number=1, body=io.BytesIO(b"part"), size=4
    )
    s3_store.multipart_abort("org/dropped", upload_id=upload_id)
    s3_store.multipart_abort("org/dropped", upload_id=upload_id)
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")
    assert client.list_multipart_uploads(Bucket=s3_bucket).get("Uploads", []) == []
    assert not s3_store.exists("org/dropped")
