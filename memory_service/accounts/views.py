from __future__ import annotations

from rest_framework import status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from memory_service import clock
from memory_service.accounts import services
from memory_service.accounts.authentication import (
    ApiKeyAuthentication,
    MemberSessionAuthentication,
    caller_key,
    caller_organisation,
)
from memory_service.accounts.models import ApiKey
from memory_service.accounts.scopes import ALL_SCOPES, KEYS_MANAGE, default_scopes
from memory_service.accounts.serializers import KeyCreateSerializer, KeyRecordSerializer
from memory_service.openapi import UNPRINTABLE, operation, text
from shared.openapi import STRING, array, one_of, record, ref


class KeyViewSet(viewsets.ViewSet):
    """The organisation's API keys, for a member's session or a key holding keys:manage."""

    authentication_classes = [ApiKeyAuthentication, MemberSessionAuthentication]
    # No OPTIONS: the API publishes no metadata, and Allow lists what is really answered.
    http_method_names = ["get", "post", "delete", "head"]
    required_scopes = {"list": KEYS_MANAGE, "create": KEYS_MANAGE, "destroy": KEYS_MANAGE}

    @operation(
        "List the organisation's keys, revoked ones included; never a secret",
        response=record({"keys": array(ref("ApiKey"))}),
        errors=("BootstrapDisabled",),
    )
    def list(self, request: Request) -> Response:
        keys = ApiKey.objects.for_org(caller_organisation(request))
        return Response({"keys": KeyRecordSerializer(keys, many=True).data})

    @operation(
        "Mint a key; its secret is in this answer and never again",
        status=201,
        response=record({"key": ref("ApiKey"), "secret": STRING}),
        body=record(
            {
                "name": text(100, refused=UNPRINTABLE),
                "scopes": {**array(one_of(ALL_SCOPES)), "minItems": 1},
            },
            optional=("scopes",),
        ),
        errors=("BootstrapDisabled",),
    )
    def create(self, request: Request) -> Response:
        body = KeyCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        key, secret = services.key_create(
            org=caller_organisation(request),
            name=body.validated_data["name"],
            scopes=body.validated_data.get("scopes") or default_scopes(),
            now=clock.now(),
            acting_key=caller_key(request),
        )
        data = {"key": KeyRecordSerializer(key).data, "secret": secret}
        return Response(data, status=status.HTTP_201_CREATED)

    @operation(
        "Revoke a key at once; revoking it again answers the same",
        response=record({"key": ref("ApiKey")}),
        errors=("NotFound", "BootstrapDisabled"),
        detail=True,
    )
    def destroy(self, request: Request, pk: str) -> Response:
        key = services.key_revoke(
            org=caller_organisation(request),
            key_id=pk,
            now=clock.now(),
            acting_key=caller_key(request),
        )
        return Response({"key": KeyRecordSerializer(key).data})
