from __future__ import annotations

from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from shared.openapi import STRING, TIMESTAMP, array, record, ref
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
from storage_service.openapi import IDS, KEY_NAME, PAGE_QUERY, PERMISSIONS, operation
from storage_service.pagination import PAGE_PARAMETERS, PageQuerySerializer, paginate


class KeyViewSet(viewsets.ViewSet):
    required_permissions = {
        "list": KEYS_READ,
        "create": KEYS_WRITE,
        "destroy": KEYS_WRITE,
        "bulk_destroy": KEYS_WRITE,
    }
    query_parameters = {"list": PAGE_PARAMETERS}

    @operation(
        "List the organisation's API keys",
        data=record({"keys": array(ref("ApiKey")), "pagination": ref("Pagination")}),
        parameters=PAGE_QUERY,
    )
    def list(self, request: Request) -> Response:
        params = PageQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        org = caller_organisation(request)
        keys, pagination = paginate(ApiKey.objects.for_org(org), params.validated_data["page"])
        data = ApiKeySerializer(keys, many=True, context={"now": clock.now()}).data
        return Response({"keys": data, "pagination": pagination})

    @operation(
        "Create an API key; fullKey is shown only in this answer",
        data=record({"key": ref("CreatedApiKey")}),
        body=record(
            {
                "name": KEY_NAME,
                "permissions": array({"type": "string", "enum": PERMISSIONS}),
                "expiresAt": TIMESTAMP,
            },
            optional=("permissions", "expiresAt"),
        ),
        errors=(
            *("INVALID_KEY_NAME", "INVALID_PERMISSIONS", "INVALID_EXPIRATION_DATE"),
            "KEY_LIMIT_EXCEEDED",
        ),
    )
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

    @operation(
        "Revoke an API key at once",
        data=record({"message": STRING, "keyId": STRING, "revokedAt": TIMESTAMP}),
        errors=("KEY_NOT_FOUND", "KEY_ALREADY_REVOKED", "CANNOT_REVOKE_OWN_KEY"),
        detail=True,
    )
    def destroy(self, request: Request, pk: str) -> Response:
        now = clock.now()
        org, acting_key = caller_organisation(request), caller_key(request)
        key = services.key_revoke(org=org, key_id=pk, acting_key=acting_key, now=now)
        return Response(
            {"message": "API key revoked.", "keyId": key.pk, "revokedAt": clock.iso(key.revoked_at)}
        )

    @operation(
        "Revoke several API keys; each succeeds or fails on its own",
        data=record(
            {
                "revoked": array(STRING),
                "failed": array(record({"keyId": STRING, "code": STRING, "reason": STRING})),
                "revokedAt": TIMESTAMP,
            }
        ),
        body=record({"keyIds": IDS}),
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
