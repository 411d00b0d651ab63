"""Memories in the Django admin: filter, search, promote to core, archive, add and forget."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest

from memory_service import clock
from memory_service.extraction.secrets import contains_secret
from memory_service.extraction.subjects import subject_of
from memory_service.memories.models import ARCHIVE, CORE, Memory, Turn
from memory_service.memories.normalise import fingerprint
from memory_service.memories.services.memories import memory_forget
from memory_service.recall.index import index_entries, reindex


class MemoryForm(forms.ModelForm):
    class Meta:
        model = Memory
        fields = ["organisation", "content", "kind", "tier", "subject", "domain"]

    def clean_content(self) -> str:
        content = self.cleaned_data["content"].strip()
        if contains_secret(content):
            raise forms.ValidationError("This looks like a secret; secrets are never stored.")
        return content

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        org, content = data.get("organisation"), data.get("content")
        if self.instance._state.adding and org and content:
            held = Memory.objects.for_org(org).filter(fingerprint=fingerprint(content)).first()
            if held is not None:
                raise forms.ValidationError(f"The organisation already holds this as {held.id}.")
        return data


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

    @transaction.atomic
    def save_model(self, request: HttpRequest, obj: Memory, form: forms.Form, change: bool) -> None:
        now = clock.now()
        obj.updated_at = now
        if change:
            obj.save()
            if {"subject", "domain"} & set(form.changed_data):
                reindex(obj.recall_entry())
            return
        obj.fingerprint = fingerprint(obj.content)
        obj.subject = obj.subject or (subject_of(obj.content) or "")
        obj.created_at = now
        obj.save()
        index_entries([obj.recall_entry()])

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
