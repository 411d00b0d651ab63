from __future__ import annotations

from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from storage_service import clock
from storage_service.accounts import services
from storage_service.accounts.authentication import caller_key, caller_organisation
from storage_service.accounts.models import ApiKey
from storage_service.accounts.permissions import KEYS_READ, KEYS_WRITE
from storage_service.accounts.serializers import (
    ApiKeySerializer,
    KeyBulkRevokeSerializer,
    KeyCreateSerializer,
)
from storage_service.pagination import PAGE_PARAMETERS, paginate, parse_page_request


class KeyViewSet(viewsets.ViewSet):
    required_permissions = {
        "list": KEYS_READ,
        "create": KEYS_WRITE,
        "destroy": KEYS_WRITE,
        "bulk_destroy": KEYS_WRITE,
    }
    query_parameters = {"list": PAGE_PARAMETERS}

    def list(self, request: Request) -> Response:
        page_request = parse_page_request(request.query_params)
        org = caller_organisation(request)
        keys, pagination = paginate(ApiKey.objects.for_org(org), page_request)
        data = ApiKeySerializer(keys, many=True, context={"now": clock.now()}).data
        return Response({"keys": data, "pagination": pagination})

    def create(self, request: Request) -> Response:
        now = clock.now()
        body = KeyCreateSerializer(data=request.data, context={"now": now})
        body.is_valid(raise_exception=True)
        fields = body.validated_data
        key, secret = services.key_create(
            org=caller_organisation(request),
            name=fields["name"],
            permissions=fields.get("permissions") or list(caller_key(request).permissions),
            expires_at=fields.get("expiresAt"),
            now=now,
            acting_key=caller_key(request),
        )
        context = {"now": now, "secret": secret}
        return Response({"key": ApiKeySerializer(key, context=context).data})

    def destroy(self, request: Request, pk: str) -> Response:
        now = clock.now()
        org, acting_key = caller_organisation(request), caller_key(request)
        key = services.key_revoke(org=org, key_id=pk, acting_key=acting_key, now=now)
        return Response(
            {"message": "API key revoked.", "keyId": key.pk, "revokedAt": clock.iso(key.revoked_at)}
        )

    @action(detail=False, methods=["delete"], url_path="bulk")
    def bulk_destroy(self, request: Request) -> Response:
        now = clock.now()
        body = KeyBulkRevokeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        outcome = services.keys_revoke_bulk(
            org=caller_organisation(request),
            key_ids=body.validated_data["keyIds"],
            acting_key=caller_key(request),
            now=now,
        )
        return Response(
            {"revoked": outcome.revoked, "failed": outcome.failed, "revokedAt": clock.iso(now)}
        )
