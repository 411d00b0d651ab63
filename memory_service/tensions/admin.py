"""Tensions in the Django admin, to see what contradicts what."""

from __future__ import annotations

from django.contrib import admin

from memory_service.tensions.models import Tension


@admin.register(Tension)
class TensionAdmin(admin.ModelAdmin):
    list_display = ["description", "status", "created_at", "resolved_at"]
    list_filter = ["status"]
    search_fields = ["description", "id"]
    raw_id_fields = ["older", "newer"]
    readonly_fields = ["id", "created_at", "resolved_at"]
