from __future__ import annotations

from typing import cast

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from storage_service import clock, errors
from storage_service.folders import trash
from storage_service.folders.models import Folder, FolderQuerySet


class TrashFilter(admin.SimpleListFilter):
    title = "trash state"
    parameter_name = "trash"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple]:
        return [("live", "Live"), ("trashed", "In the trash")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Folder]) -> QuerySet[Folder]:
        folders = cast(FolderQuerySet, queryset)  # the admin's, from Folder.objects
        if self.value() == "live":
            return folders.live()
        if self.value() == "trashed":
            return folders.in_trash()
        return queryset


@admin.register(Folder)
class FolderAdmin(admin.ModelAdmin):
    """Folders, read-only: their writes keep paths and quota right, so they go through services."""

    list_display = ["name", "tree_path", "organisation", "deleted_at", "id"]
    list_filter = [TrashFilter, "organisation"]
    list_select_related = ["organisation"]
    search_fields = ["name", "id"]
    fields = (
        "id",
        "organisation",
        "name",
        "tree_path",
        "parent",
        "created_at",
        "updated_at",
        "deleted_at",
        "trash_root",
    )
    readonly_fields = fields
    actions = ["restore_from_trash"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Folder | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Folder | None = None) -> bool:
        return False

    @admin.display(description="tree path")
    def tree_path(self, folder: Folder) -> str:
        """The path as names, ``/Photos/2024``, read from the ids in the materialised path."""
        ids = folder.path.strip("/").split("/")
        names = dict(Folder.objects.filter(pk__in=ids).values_list("pk", "name"))
        return "/" + "/".join(names.get(pk, "?") for pk in ids)

    @admin.action(description="Restore from trash")
    def restore_from_trash(self, request: HttpRequest, queryset: QuerySet[Folder]) -> None:
        now = clock.now()
        restored, refused = [], []
        for folder in queryset.select_related("organisation"):
            try:
                trash.folder_restore(org=folder.organisation, folder_id=folder.pk, now=now)
            except errors.ApiError as error:
                refused.append(f"{folder.name} ({error.message})")
            else:
                restored.append(folder.name)
        if restored:
            self.message_user(request, f"Restored {len(restored)} folder(s).", messages.SUCCESS)
        if refused:
            self.message_user(request, "Not restored: " + "; ".join(refused), messages.WARNING)
