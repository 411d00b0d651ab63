from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from storage_service.billing.models import StorageChange
from storage_service.files.models import File
from tests.storage.factories import OrganisationFactory


def migrate(target: tuple[str, str]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def stored(org, name: str, size: int, category: str, at: datetime, **extra) -> File:
    return File.objects.create(
        organisation=org,
        name=name,
        size=size,
        content_type="x/y",
        category=category,
        storage_name=f"{org.pk}/{name}",
        uploaded_at=at,
        **extra,
    )


@pytest.mark.django_db(transaction=True)
def test_the_storage_series_starts_from_the_files_already_stored():
    migrate(("billing", "0001_usage_rollups"))
    org = OrganisationFactory()
    morning = datetime(2026, 1, 5, 9, 15, tzinfo=UTC)
    stored(org, "a", 100, "image", morning)
    stored(org, "b", 50, "image", morning.replace(minute=59))
    stored(org, "c", 7, "video", morning.replace(hour=11))
    stored(org, "gone", 1000, "image", morning, deleted_at=morning)
    migrate(("billing", "0002_storage_from_live_files"))
    rows = StorageChange.objects.filter(organisation=org).order_by("hour", "category")
    nine = int(morning.replace(minute=0).timestamp())
    assert list(rows.values_list("hour", "category", "bytes", "files")) == [
        (nine, "image", 150, 2),
        (nine + 7200, "video", 7, 1),
    ]
