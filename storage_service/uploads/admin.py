from __future__ import annotations

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from storage_service import clock
from storage_service.uploads.models import MultipartUpload, UploadPart


class ReadOnlyAdmin(admin.ModelAdmin):
    """Uploads are written through the API only; the admin shows them."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class UploadPartInline(admin.TabularInline):
    model = UploadPart
    fields = ("part_number", "size", "etag", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(MultipartUpload)
class MultipartUploadAdmin(ReadOnlyAdmin):
    list_display = ["name", "organisation", "size", "parts", "created_at", "expires_at", "state"]
    list_filter = ["organisation"]
    list_select_related = ["organisation"]
    search_fields = ["name", "id"]
    date_hierarchy = "created_at"
    inlines = [UploadPartInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[MultipartUpload]:
        return super().get_queryset(request).annotate(parts_received=Count("parts"))

    @admin.display(description="parts received")
    def parts(self, upload: MultipartUpload) -> str:
        received = upload.parts_received  # type: ignore[attr-defined]  # from get_queryset
        return f"{received} / {upload.part_count}"

    @admin.display(description="state")
    def state(self, upload: MultipartUpload) -> str:
        return upload.state_at(clock.now())
