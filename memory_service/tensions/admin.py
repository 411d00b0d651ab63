"""Tensions in the Django admin: see what contradicts what, and resolve it as the API does."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from memory_service import clock, errors
from memory_service.memories.models import Memory
from memory_service.tensions.models import BOTH, RESOLVED, Tension
from memory_service.tensions.services import tension_resolve


@admin.register(Tension)
class TensionAdmin(admin.ModelAdmin):
    """Read-only records: turns and POST /v1/tensions record them, the actions resolve them."""

    list_display = ["description", "status", "created_at", "resolved_at"]
    list_filter = ["status"]
    search_fields = ["description", "id"]
    list_select_related = ["organisation"]
    fields = (
        "id",
        "organisation",
        "status",
        "description",
        "older_memory",
        "newer_memory",
        "created_at",
        "resolved_at",
        "kept",
        "note",
        "resolution",
        "lesson",
    )
    readonly_fields = fields
    actions = ["resolve_keeping_newer", "resolve_keeping_older", "resolve_keeping_both"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tension]:
        return super().get_queryset(request).select_related("older", "newer", "lesson")

    def has_add_permission(self, request: HttpRequest) -> bool:
        # Recording one orders the pair by age and refuses a duplicate: the API does that.
        return False

    @admin.display(description="Older memory")
    def older_memory(self, tension: Tension) -> str:
        return _shown(tension.older)

    @admin.display(description="Newer memory")
    def newer_memory(self, tension: Tension) -> str:
        return _shown(tension.newer)

    @admin.action(description="Resolve, keeping the newer memory", permissions=["change"])
    def resolve_keeping_newer(self, request: HttpRequest, queryset: QuerySet[Tension]) -> None:
        self._resolve(request, queryset, keep=lambda tension: tension.newer_id)

    @admin.action(description="Resolve, keeping the older memory", permissions=["change"])
    def resolve_keeping_older(self, request: HttpRequest, queryset: QuerySet[Tension]) -> None:
        self._resolve(request, queryset, keep=lambda tension: tension.older_id)

    @admin.action(description="Resolve, keeping both", permissions=["change"])
    def resolve_keeping_both(self, request: HttpRequest, queryset: QuerySet[Tension]) -> None:
        self._resolve(request, queryset, keep=lambda tension: BOTH)

    def _resolve(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tension],
        *,
        keep: Callable[[Tension], str],
    ) -> None:
        resolved = skipped = 0
        for tension in queryset.select_related("organisation"):
            if tension.status == RESOLVED:
                skipped += 1
                continue
            try:
                tension_resolve(
                    org=tension.organisation,
                    tension_id=tension.pk,
                    keep=keep(tension),
                    now=clock.now(),
                )
            except (errors.InvalidRequest, errors.NotFound):
                skipped += 1  # resolved or forgotten since the list was shown
                continue
            resolved += 1
        if resolved:
            self.message_user(request, f"Resolved {resolved} tensions.", messages.SUCCESS)
        if skipped:
            message = f"Skipped {skipped} tensions already resolved or gone."
            self.message_user(request, message, messages.WARNING)


def _shown(memory: Memory) -> str:
    return f"{memory.content} ({memory.pk}, {memory.tier})"
