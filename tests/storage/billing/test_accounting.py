"""Request accounting: what each request counts, under which label, with which bytes, exactly."""

from __future__ import annotations

import io
import multiprocessing
import os

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connections
from django.db.models import Sum

from storage_service.billing import counting
from storage_service.billing.middleware import SentBytes
from storage_service.billing.models import RequestRollup
from tests.storage.factories import ApiKeyFactory, OrganisationFactory
from tests.storage.uploading import upload_file
from tests.storage.uploads.flows import complete, data_of, put_parts, started

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024


def counted(org_id: str) -> dict[str, tuple[int, int, int]]:
    """Requests, upload and download bytes per label, once Redis (if any) is flushed."""
    counting.flush(org_id)
    rows = (
        RequestRollup.objects.filter(organisation_id=org_id)
        .values("endpoint")
        .annotate(r=Sum("requests"), u=Sum("upload_bytes"), d=Sum("download_bytes"))
    )
    return {row["endpoint"]: (row["r"], row["u"], row["d"]) for row in rows}


@pytest.mark.parametrize(
    "method, path, label",
    [
        ("get", "/v1/files", "GET /files"),
        ("get", "/v1/files/", "GET /files"),
        ("get", "/v1/files/file_missing", "GET /files/{fileId}"),
        ("delete", "/v1/files/file_missing", "DELETE /files/{fileId}"),
        ("get", "/v1/folders", "GET /folders"),
        ("post", "/v1/folders/fld_missing/restore", "POST /folders/{folderId}/restore"),
        ("delete", "/v1/keys/key_missing", "DELETE /keys/{keyId}"),
        ("get", "/v1/billing", "GET /billing"),
        ("get", "/v1/billing/usage", "GET /billing/usage"),
        (
            "put",
            "/v1/files/multipart-upload/up_missing/parts/1",
            "PUT /files/multipart-upload/{uploadId}/parts/{partNumber}",
        ),
        ("get", "/v1/nope", "other"),
        ("get", "/v1/files/a/b/c", "other"),
        ("delete", "/v1/billing", "other"),  # a route that does not serve the method
    ],
)
def test_a_request_counts_under_its_method_and_route_template(api, org, method, path, label):
    getattr(api, method)(path)
    assert counted(org.pk) == {label: (1, 0, 0)}


def test_refused_requests_count_and_requests_without_a_key_count_for_nobody(client_for, org):
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    assert reader.get("/v1/billing").status_code == 403
    assert client_for(None).get("/v1/files").status_code == 401
    assert client_for("ak_" + "x" * 40).get("/v1/files").status_code == 401
    assert counted(org.pk) == {"GET /billing": (1, 0, 0)}
    assert not RequestRollup.objects.exclude(organisation=org).exists()


def test_rate_limited_requests_count(client_for, org, settings):
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "requestsPerHour": 2}}
    client = client_for(ApiKeyFactory(organisation=org))
    statuses = [client.get("/v1/files").status_code for _ in range(4)]
    assert statuses == [200, 200, 429, 429]
    assert counted(org.pk) == {"GET /files": (4, 0, 0)}


def test_each_organisation_counts_its_own(client_for):
    mine, theirs = ApiKeyFactory(), ApiKeyFactory()
    client_for(mine).get("/v1/files")
    for _ in range(3):
        client_for(theirs).get("/v1/files")
    assert counted(mine.organisation_id) == {"GET /files": (1, 0, 0)}
    assert counted(theirs.organisation_id) == {"GET /files": (3, 0, 0)}


def test_uploads_count_the_file_bytes_and_a_refused_upload_counts_none(api, org, settings):
    upload_file(api, "a.txt", b"x" * 1000)
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], "storageLimit": 1500}}
    refused = api.post(
        "/v1/files/upload", {"file": SimpleUploadedFile("b.txt", b"y" * 600)}, format="multipart"
    )
    assert refused.json()["error"]["code"] == "STORAGE_QUOTA_EXCEEDED"
    assert counted(org.pk) == {"POST /files/upload": (2, 1000, 0)}


def test_multipart_parts_count_their_bytes(api, org, settings):
    settings.MULTIPART_MIN_PART_SIZE = 1024
    data = data_of(2500)
    upload_ = started(api, data, partSize=1024)
    parts = put_parts(api, upload_, data)
    complete(api, upload_["uploadId"], parts)
    assert counted(org.pk) == {
        "POST /files/multipart-upload-start": (1, 0, 0),
        "PUT /files/multipart-upload/{uploadId}/parts/{partNumber}": (3, 2500, 0),
        "POST /files/multipart-upload-complete": (1, 0, 0),
    }


def test_a_signed_download_counts_for_the_files_organisation_with_the_bytes_sent(
    api, client_for, org
):
    file = upload_file(api, "a.bin", data_of(5000))
    anyone = client_for(None)
    whole = anyone.get(file["url"])
    assert len(b"".join(whole.streaming_content)) == 5000
    part = anyone.get(file["url"], HTTP_RANGE="bytes=100-199")
    assert part.status_code == 206
    assert len(b"".join(part.streaming_content)) == 100
    assert counted(org.pk)["GET /downloads/{token}"] == (2, 0, 5100)


def test_an_interrupted_stream_reports_what_was_sent_once():
    ends = []
    stream = SentBytes(iter([b"a" * 10, b"b" * 20, b"c" * 30]), ends.append)
    assert next(stream) == b"a" * 10
    stream.close()  # the client went away; the server closes the response
    stream.close()
    assert ends == [10]


def test_a_stream_nobody_started_reports_nothing_sent():
    ends = []
    SentBytes(iter([b"a" * 10]), ends.append).close()
    assert ends == [0]


def test_a_stream_read_to_its_end_reports_every_byte_once():
    ends = []
    stream = SentBytes(iter([b"a" * 10, b"b" * 20]), ends.append)
    assert b"".join(stream) == b"a" * 10 + b"b" * 20
    stream.close()
    assert ends == [30]


def test_accounting_can_be_switched_off(api, org, settings):
    settings.USAGE_ACCOUNTING = False
    api.get("/v1/files")
    assert counted(org.pk) == {}


def test_an_unreachable_redis_counts_in_the_database(org, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    counting.count(counting.Count(org_id=org.pk, label="GET /files", at=7200.0))
    counting.count(counting.Count(org_id=org.pk, label="GET /files", at=7300.0, download=10))
    row = RequestRollup.objects.get(organisation=org)
    assert (row.hour, row.endpoint, row.requests, row.download_bytes) == (7200, "GET /files", 2, 10)


redis_only = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL")


def _redis(settings):
    from shared.rate_limits import redis_client

    return redis_client(settings.REDIS_URL)


@redis_only
def test_a_flush_that_dies_after_claiming_loses_nothing(org, settings):
    for _ in range(3):
        counting.count(counting.Count(org_id=org.pk, label="GET /files", at=3600.0))
    counting._claim(_redis(settings), org.pk)  # the flusher dies here, before applying
    counting.count(counting.Count(org_id=org.pk, label="GET /files", at=3600.0))
    assert counted(org.pk) == {"GET /files": (4, 0, 0)}


@redis_only
def test_a_flush_that_dies_before_deleting_what_it_applied_counts_nothing_twice(org, settings):
    client = _redis(settings)
    counting.count(counting.Count(org_id=org.pk, label="GET /files", at=3600.0, upload=5))
    counting._claim(client, org.pk)
    (staging,) = [
        name.decode()
        for name in client.smembers(f"{counting._ns()}:staging")
        if org.pk in str(name)
    ]
    fields = client.hgetall(staging)
    counting._apply(client, staging)
    # As if the flusher had died between its commit and its DEL: the hash is still there.
    client.hset(staging, mapping=fields)
    client.sadd(f"{counting._ns()}:staging", staging)
    assert counted(org.pk) == {"GET /files": (1, 5, 0)}
    assert not client.exists(staging)


@pytest.mark.django_db(transaction=True)
def test_counts_are_exact_across_processes_while_flushes_run(settings):
    """Two processes count at once (Redis or the database) while this one flushes."""
    org = OrganisationFactory()
    connections.close_all()
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_count_many, args=(org.pk, 300)) for _ in range(2)]
    for worker in workers:
        worker.start()
    while any(worker.is_alive() for worker in workers):
        counting.flush()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    counting.flush()
    assert counted(org.pk) == {"GET /files": (600, 600, 0)}


def _count_many(org_id: str, times: int) -> None:
    try:
        for _ in range(times):
            counting.count(counting.Count(org_id=org_id, label="GET /files", at=36000.0, upload=1))
    finally:
        connections.close_all()


@redis_only
def test_flush_usage_moves_every_organisations_counts(settings):
    first, second = OrganisationFactory(), OrganisationFactory()
    counting.count(counting.Count(org_id=first.pk, label="GET /files", at=3600.0))
    counting.count(counting.Count(org_id=second.pk, label="GET /keys", at=7200.0, download=3))
    assert not RequestRollup.objects.exists()
    call_command("flush_usage", stdout=io.StringIO())
    rows = RequestRollup.objects.order_by("hour").values_list(
        "organisation_id", "hour", "endpoint", "requests", "download_bytes"
    )
    assert list(rows) == [
        (first.pk, 3600, "GET /files", 1, 0),
        (second.pk, 7200, "GET /keys", 1, 3),
    ]
