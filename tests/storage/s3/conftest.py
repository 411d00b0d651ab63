"""An S3-speaking server (moto's standalone server) that the tests start and reach over HTTP."""

from __future__ import annotations

import os
import socket
import uuid

import boto3
import pytest
from moto.server import ThreadedMotoServer


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
