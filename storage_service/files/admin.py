from __future__ import annotations

from django.contrib import admin
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils.html import format_html

from storage_service.files.models import File
from storage_service.files.serializers import download_token


@admin.register(File)
class FileAdmin(admin.ModelAdmin):
    list_display = ["name", "human_size", "content_type", "folder", "organisation", "uploaded_at"]
    list_display += ["deleted_at", "download"]
    list_filter = ["category", "organisation", ("deleted_at", admin.EmptyFieldListFilter)]
    search_fields = ["name", "id"]
    list_select_related = ["folder", "organisation"]
    readonly_fields = ["id", "organisation", "folder", "size", "content_type", "category"]
    readonly_fields += [
        "sha256",
        "metadata",
        "storage_name",
        "uploaded_at",
        "deleted_at",
        "download",
    ]
    fields = ["name", *readonly_fields]
    show_full_result_count = False  # no COUNT(*) over millions of rows on every page

    def has_add_permission(self, request) -> bool:
        return False  # files arrive through the API, which streams, sniffs and counts quota

    @admin.display(description="size", ordering="size")
    def human_size(self, file: File) -> str:
        return filesizeformat(file.size)

    @admin.display(description="download")
    def download(self, file: File) -> str:
        if file.deleted_at is not None:
            return "in trash"
        url = reverse("file-download", kwargs={"token": download_token(file)})
        return format_html('<a href="{}">download</a>', url)
