"""Conditional downloads: If-None-Match (304), If-Range (a stale one gets the whole file), 416."""

from __future__ import annotations

import hashlib

import pytest
from django.utils.http import http_date
from rest_framework.test import APIClient

from storage_service.files.models import File
from tests.storage.envelope import error_of
from tests.storage.files.downloading import DATA, body

pytestmark = pytest.mark.django_db

TAG = f'"{hashlib.sha256(DATA).hexdigest()}"'


def test_the_download_carries_its_validators(api, stored):
    response = api.get(stored["url"])
    assert response["ETag"] == TAG
    uploaded = File.objects.get(pk=stored["id"]).uploaded_at
    assert response["Last-Modified"] == http_date(uploaded.timestamp())


@pytest.mark.parametrize("header", [TAG, f"W/{TAG}", f'"other", {TAG}', "*"])
def test_a_matching_if_none_match_is_304_without_a_body(api, stored, header):
    response = api.get(stored["url"], HTTP_IF_NONE_MATCH=header)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == TAG


def test_a_stale_if_none_match_gets_the_whole_file(api, stored):
    response = api.get(stored["url"], HTTP_IF_NONE_MATCH='"something-else"')
    assert response.status_code == 200
    assert body(response) == DATA


def test_a_current_if_range_honours_the_range(api, stored):
    response = api.get(stored["url"], HTTP_RANGE="bytes=0-9", HTTP_IF_RANGE=TAG)
    assert response.status_code == 206
    assert body(response) == DATA[:10]


def test_a_current_if_range_date_honours_the_range(api, stored):
    modified = api.get(stored["url"])["Last-Modified"]
    response = api.get(stored["url"], HTTP_RANGE="bytes=0-9", HTTP_IF_RANGE=modified)
    assert response.status_code == 206


@pytest.mark.parametrize(
    "header", ['"stale-tag"', f"W/{TAG}", "Mon, 01 Jan 2001 00:00:00 GMT", "not a date"]
)
def test_a_stale_if_range_gets_the_whole_file(api, stored, header):
    response = api.get(stored["url"], HTTP_RANGE="bytes=0-9", HTTP_IF_RANGE=header)
    assert response.status_code == 200
    assert body(response) == DATA
    assert "Content-Range" not in response


def test_an_unsatisfiable_range_is_416_in_the_envelope(api, stored):
    response = api.get(stored["url"], HTTP_RANGE="bytes=20000-")
    error = error_of(response, 416)
    assert error["code"] == "RANGE_NOT_SATISFIABLE"
    assert error["details"] == {"range": "bytes=20000-", "size": len(DATA)}
    assert response["Content-Range"] == f"bytes */{len(DATA)}"


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch", "QUERY"])
def test_another_method_on_a_download_is_405_in_the_envelope(stored, method):
    # A client with the CSRF check on (a browser's cookies, a fuzzer): the link is the
    # credential, so no CSRF token applies and the answer is the envelope's 405, not an HTML 403.
    client = APIClient(enforce_csrf_checks=True)
    response = client.generic(method.upper(), stored["url"])
    assert error_of(response, 405)["code"] == "METHOD_NOT_ALLOWED"
    assert response["Allow"] == "GET, HEAD"
