from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from storage_service import clock
from storage_service.accounts import permissions, services
from storage_service.accounts.models import ApiKey, Organisation


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "id", "plan", "folder_deletion", "created_at"]
    list_filter = ["plan", "folder_deletion"]
    search_fields = ["name", "id"]
    readonly_fields = ["id", "created_at"]


class ApiKeyAddForm(forms.ModelForm):
    permissions = forms.MultipleChoiceField(
        choices=[(p, p) for p in permissions.ALL],
        widget=forms.CheckboxSelectMultiple,
        initial=[permissions.ADMIN],
    )

    class Meta:
        model = ApiKey
        fields = ("organisation", "name", "permissions", "expires_at")

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        org = cleaned.get("organisation")
        if org is not None:
            active = ApiKey.objects.for_org(org).active(clock.now()).count()
            if active >= settings.MAX_KEYS:
                raise forms.ValidationError(
                    f"{org} already has {active} active keys (the limit is {settings.MAX_KEYS})."
                )
        return cleaned


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = ["name", "prefix", "organisation", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["organisation"]
    search_fields = ["name", "prefix", "id"]
    readonly_fields = ["id", "prefix", "created_at", "last_used_at", "revoked_at"]
    fields = (
        "id",
        "organisation",
        "name",
        "prefix",
        "permissions",
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
            kwargs["fields"] = ApiKeyAddForm.Meta.fields
        return super().get_form(request, obj, change, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> list[str]:
        if obj is None:
            return []
        return [*self.readonly_fields, "organisation", "permissions"]

    def get_fields(self, request: HttpRequest, obj: ApiKey | None = None) -> tuple[str, ...]:
        return ApiKeyAddForm.Meta.fields if obj is None else self.fields

    def save_model(self, request: HttpRequest, obj: ApiKey, form: forms.Form, change: bool) -> None:
        if change:
            obj.save(update_fields=["name", "expires_at"])
            return
        key, secret = services.key_create(
            org=obj.organisation,
            name=obj.name,
            permissions=form.cleaned_data["permissions"],
            expires_at=obj.expires_at,
            now=clock.now(),
        )
        obj.pk, obj.prefix, obj.created_at = key.pk, key.prefix, key.created_at
        obj._state.adding = False
        # Kept on the request only: the secret is rendered once and never stored or logged.
        request._new_key_secret = secret  # type: ignore[attr-defined]

    def response_add(
        self, request: HttpRequest, obj: ApiKey, post_url_continue=None
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "key": obj,
            "secret": request._new_key_secret,  # type: ignore[attr-defined]
            "title": "API key created",
        }
        return TemplateResponse(request, "admin/accounts/apikey/secret_once.html", context)

    @admin.action(description="Revoke selected keys")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiKey]) -> None:
        count = queryset.filter(revoked_at__isnull=True).update(revoked_at=clock.now())
        self.message_user(request, f"Revoked {count} key(s).", messages.SUCCESS)
