"""Memories in the Django admin: filter, search, promote to core, archive, add and forget."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from memory_service import clock
from memory_service.extraction.secrets import contains_secret
from memory_service.memories.models import ARCHIVE, CORE, Memory, Turn
from memory_service.memories.services.memories import (
    Statement,
    memories_store,
    memory_edit,
    memory_forget,
)


class MemoryForm(forms.ModelForm):
    class Meta:
        model = Memory
        fields = ["organisation", "content", "kind", "tier", "subject", "domain"]

    def clean_content(self) -> str:
        content = self.cleaned_data["content"].strip()
        if contains_secret(content):
            raise forms.ValidationError("This looks like a secret; secrets are never stored.")
        return content


@admin.register(Memory)
class MemoryAdmin(admin.ModelAdmin):
    form = MemoryForm
    list_display = ["content", "tier", "kind", "subject", "domain", "times_seen", "updated_at"]
    list_filter = ["tier", "kind", "domain", "source"]
    search_fields = ["content", "subject", "id"]
    list_select_related = ["organisation"]
    readonly_fields = [
        "id",
        "source",
        "session_id",
        "times_seen",
        "created_at",
        "updated_at",
        "last_used_at",
    ]
    actions = ["promote", "archive"]

    def get_readonly_fields(self, request: HttpRequest, obj: Memory | None = None) -> list[str]:
        # The content is what the memory is: a new wording is a new memory.
        fixed = ["organisation", "content"] if obj is not None else []
        return [*fixed, *self.readonly_fields]

    def save_model(self, request: HttpRequest, obj: Memory, form: forms.Form, change: bool) -> None:
        # Through the API's services, so that an addition merges or records its tension as a
        # stored statement does.
        if change:
            edited = memory_edit(
                org=obj.organisation,
                memory_id=obj.id,
                kind=obj.kind,
                tier=obj.tier,
                subject=obj.subject,
                domain=obj.domain,
                now=clock.now(),
            )
        else:
            statement = Statement(
                content=obj.content,
                kind=obj.kind,
                tier=obj.tier,
                domain=obj.domain,
                subject=obj.subject,
            )
            outcome = memories_store(org=obj.organisation, statements=[statement], now=clock.now())
            edited = outcome.memories[0]
        # The admin logs and redirects to ``obj``: make it the memory stored or merged into.
        obj.pk = edited.pk
        obj.refresh_from_db()
        obj._state.adding = False

    def delete_model(self, request: HttpRequest, obj: Memory) -> None:
        memory_forget(org=obj.organisation, memory_id=obj.id)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        for memory in queryset.select_related("organisation"):
            memory_forget(org=memory.organisation, memory_id=memory.id)

    @admin.action(description="Promote to core")
    def promote(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        moved = queryset.exclude(tier=CORE).update(tier=CORE, updated_at=clock.now())
        self.message_user(request, f"Promoted {moved} memories to core.", messages.SUCCESS)

    @admin.action(description="Archive")
    def archive(self, request: HttpRequest, queryset: QuerySet[Memory]) -> None:
        moved = queryset.exclude(tier=ARCHIVE).update(tier=ARCHIVE, updated_at=clock.now())
        self.message_user(request, f"Archived {moved} memories.", messages.SUCCESS)


@admin.register(Turn)
class TurnAdmin(admin.ModelAdmin):
    """The transcripts, read-only: they are what was said, with secrets already redacted."""

    list_display = ["user_message", "session_id", "lookup", "created_at"]
    list_filter = ["lookup"]
    search_fields = ["session_id", "user_message"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Turn | None = None) -> bool:
        return False
