from __future__ import annotations

from datetime import UTC, datetime

from django.contrib import admin
from django.http import HttpRequest

from storage_service.billing.models import RequestRollup, StorageChange


class ReadOnly(admin.ModelAdmin):
    """Rollups are what billing reports from: readable in the admin, written only by counting."""

    list_filter = ["organisation"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="hour (UTC)", ordering="hour")
    def hour_utc(self, row: RequestRollup | StorageChange) -> str:
        return datetime.fromtimestamp(row.hour, UTC).strftime("%Y-%m-%d %H:00")


@admin.register(RequestRollup)
class RequestRollupAdmin(ReadOnly):
    list_display = ["hour_utc", "organisation", "endpoint", "requests", "upload_bytes"]
    list_display += ["download_bytes"]
    search_fields = ["endpoint"]
    ordering = ["-hour", "endpoint"]


@admin.register(StorageChange)
class StorageChangeAdmin(ReadOnly):
    list_display = ["hour_utc", "organisation", "category", "bytes", "files"]
    ordering = ["-hour", "category"]
