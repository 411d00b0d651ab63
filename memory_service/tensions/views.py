"""The /v1/tensions endpoints: list, record and resolve contradictions between memories."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from memory_service import clock
from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE
from memory_service.tensions import services
from memory_service.tensions.listing import tensions_page
from memory_service.tensions.serializers import (
    TensionListQuerySerializer,
    TensionOpenSerializer,
    TensionResolveSerializer,
    TensionSerializer,
)


class TensionViewSet(viewsets.ViewSet):
    """An organisation's contradictions: list them, record one, resolve one."""

    http_method_names = ["get", "post", "head"]
    required_scopes = {"list": MEMORIES_READ, "create": MEMORIES_WRITE, "resolve": MEMORIES_WRITE}
    query_parameters = {"list": tuple(TensionListQuerySerializer().fields)}

    def list(self, request: Request) -> Response:
        query = TensionListQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page, next_cursor = tensions_page(org=caller_organisation(request), **query.validated_data)
        return Response(
            {"tensions": TensionSerializer(page, many=True).data, "nextCursor": next_cursor}
        )

    def create(self, request: Request) -> Response:
        body = TensionOpenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tension = services.tension_open(
            org=caller_organisation(request),
            memory_ids=body.validated_data["memoryIds"],
            description=body.validated_data.get("description"),
            now=clock.now(),
        )
        return Response(TensionSerializer(tension).data)

    def resolve(self, request: Request, pk: str) -> Response:
        body = TensionResolveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        tension = services.tension_resolve(
            org=caller_organisation(request),
            tension_id=pk,
            keep=body.validated_data["keep"],
            note=body.validated_data.get("note"),
            now=clock.now(),
        )
        return Response(TensionSerializer(tension).data)
