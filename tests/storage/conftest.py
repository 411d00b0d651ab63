from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable

import boto3
import pytest
from moto.server import ThreadedMotoServer
from rest_framework.test import APIClient

from storage_service.accounts.models import ApiKey
from tests.clients import bearer_client
from tests.storage.factories import ApiKeyFactory, OrganisationFactory


@pytest.fixture(autouse=True)
def fresh_rate_limit_namespace(settings):
    """Give each test its own counters: a shared Redis outlives tests, and addresses repeat."""
    settings.RATE_LIMIT_NAMESPACE = f"storage-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Keep each test's stored bytes in its own directory."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path / "media" / ".incoming")
    (tmp_path / "media" / ".incoming").mkdir(parents=True)
    return settings.MEDIA_ROOT


@pytest.fixture
def org():
    return OrganisationFactory.create()


@pytest.fixture
def admin_key(org) -> ApiKey:
    return ApiKeyFactory.create(organisation=org, permissions=["admin"])


@pytest.fixture
def client_for() -> Callable[[ApiKey | str | None], APIClient]:
    """Return an APIClient that sends ``key`` (an ApiKey or a raw secret) as its Bearer token."""
    return bearer_client


@pytest.fixture
def api(client_for, admin_key) -> APIClient:
    return client_for(admin_key)


# An S3-speaking server (moto's standalone server) that the tests start and reach over HTTP,
# for the object store's tests (s3/) and the blob store's own (files/test_blob_store.py).


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def s3_endpoint():
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    port = _free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    yield f"http://127.0.0.1:{port}"
    server.stop()


@pytest.fixture
def s3_bucket(s3_endpoint, settings) -> str:
    """A fresh bucket, and the service's default storage pointed at it."""
    bucket = f"test-{uuid.uuid4().hex[:12]}"
    boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1").create_bucket(
        Bucket=bucket
    )
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": bucket,
                "endpoint_url": s3_endpoint,
                "region_name": "us-east-1",
                "addressing_style": "path",
                "signature_version": "s3v4",
                "file_overwrite": True,
                "default_acl": None,
            },
        },
    }
    return bucket


@pytest.fixture
def s3_objects(s3_endpoint, s3_bucket):
    """Return the bucket's object keys, read straight from the server."""
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1")

    def keys() -> set[str]:
        listing = client.list_objects_v2(Bucket=s3_bucket)
        return {item["Key"] for item in listing.get("Contents", [])}

    return keys
