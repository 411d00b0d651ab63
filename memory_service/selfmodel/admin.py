"""The self-model in the Django admin: each domain's reliability, and what failed and helped."""

from __future__ import annotations

from typing import cast

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from memory_service.selfmodel.models import Domain, DomainQuerySet, Note


class WeakFilter(admin.SimpleListFilter):
    title = "weak"
    parameter_name = "weak"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Domain]) -> QuerySet[Domain]:
        domains = cast(DomainQuerySet, queryset)  # the admin's, from Domain.objects
        if self.value() == "yes":
            return domains.weak()
        if self.value() == "no":
            return queryset.exclude(pk__in=domains.weak().values("pk"))
        return queryset


class NoteInline(admin.TabularInline):
    """Failure patterns and strategies, as outcomes left them: read-only, but removable."""

    model = Note
    extra = 0
    fields = ("kind", "text", "count", "first_seen_at", "last_seen_at")
    readonly_fields = fields
    ordering = ["kind", "-last_seen_at", "-id"]

    def has_add_permission(self, request: HttpRequest, obj: Domain | None = None) -> bool:
        return False


@admin.register(Domain)
class DomainAdmin(admin.ModelAdmin):
    """Domains are made by outcomes, so they are read here; deleting one forgets its history."""

    list_display = ["name", "organisation", "reliability_score", "samples", "is_weak", "updated_at"]
    list_filter = [WeakFilter]
    search_fields = ["name"]
    list_select_related = ["organisation"]
    fields = ("organisation", "name", "successes", "failures", "created_at", "updated_at")
    readonly_fields = fields
    inlines = [NoteInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Domain]:
        return cast(DomainQuerySet, super().get_queryset(request)).with_reliability()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="reliability", ordering="score")
    def reliability_score(self, domain: Domain) -> str:
        return f"{float(domain.reliability):.3f}"

    @admin.display(description="samples")
    def samples(self, domain: Domain) -> int:
        return domain.samples

    @admin.display(description="weak", boolean=True)
    def is_weak(self, domain: Domain) -> bool:
        return domain.weak
