from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from memory_service import clock
from memory_service.accounts import services
from memory_service.accounts.models import ApiKey, Membership, Organisation
from memory_service.accounts.scopes import ALL_SCOPES, DEFAULT_SCOPES


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    raw_id_fields = ["user"]
    readonly_fields = ["created_at"]


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "created_at"]
    search_fields = ["name", "id"]
    readonly_fields = ["id", "created_at"]
    inlines = [MembershipInline]


class ApiKeyAddForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(
        choices=[(scope, scope) for scope in ALL_SCOPES],
        widget=forms.CheckboxSelectMultiple,
        initial=DEFAULT_SCOPES,
    )

    class Meta:
        model = ApiKey
        fields = ("organisation", "name", "scopes", "expires_at")


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "prefix", "organisation", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["organisation"]
    search_fields = ["name", "prefix", "id"]
    readonly_fields = ["id", "organisation", "prefix", "scopes", "created_at", "last_used_at"]
    readonly_fields += ["revoked_at"]
    fields = (
        "id",
        "organisation",
        "name",
        "prefix",
        "scopes",
        "expires_at",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    actions = ["revoke"]

    def get_form(
        self, request: HttpRequest, obj: ApiKey | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm]:
        if obj is None:
            kwargs["form"] = ApiKeyAddForm
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> list[str]:
        return self.readonly_fields if obj is not None else []

    def get_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> tuple[str, ...]:
        return self.fields if obj is not None else ApiKeyAddForm.Meta.fields

    def save_model(self, request: HttpRequest, obj: ApiKey, form: forms.Form, change: bool) -> None:
        if change:
            obj.save(update_fields=["name", "expires_at"])
            return
        key, secret = services.key_create(
            org=obj.organisation,
            name=obj.name,
            scopes=form.cleaned_data["scopes"],
            now=clock.now(),
            expires_at=obj.expires_at,
        )
        # The admin goes on with ``obj`` (change message, log entry): make it the stored key.
        for field in ApiKey._meta.concrete_fields:
            setattr(obj, field.attname, getattr(key, field.attname))
        obj._state.adding = False
        # Kept on the request only: the secret is rendered once, never stored, logged or messaged.
        request._new_key_secret = secret  # type: ignore[attr-defined]

    def response_add(
        self, request: HttpRequest, obj: ApiKey, post_url_continue: str | None = None
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "key": obj,
            "secret": request._new_key_secret,  # type: ignore[attr-defined]
            "title": "API key created",
        }
        return TemplateResponse(request, "admin/memory_accounts/apikey/secret_once.html", context)

    @admin.action(description="Revoke selected keys")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        now = clock.now()
        active = list(queryset.filter(revoked_at__isnull=True).select_related("organisation"))
        for key in active:
            services.key_revoke(org=key.organisation, key_id=key.pk, now=now)
        self.message_user(request, f"Revoked {len(active)} key(s).", messages.SUCCESS)
