from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_ready_checks_the_object_store(s3_bucket):
    response = APIClient().get("/ready")
    assert response.status_code == 200
    assert response.json()["checks"]["objectStore"] == "ok"


def test_ready_is_503_when_the_bucket_cannot_be_reached(s3_bucket, settings):
    options = settings.STORAGES["default"]["OPTIONS"]
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {**settings.STORAGES["default"], "OPTIONS": {**options, "bucket_name": "gone"}},
    }
    response = APIClient().get("/ready")
    assert response.status_code == 503
    assert response.json()["checks"]["objectStore"] == "unreachable"
