"""The /v1/tensions endpoints: list, record and resolve contradictions between memories."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from memory_service import clock
from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE
from memory_service.openapi import PAGE_QUERY, operation, paged, text
from memory_service.tensions import services
from memory_service.tensions.listing import tensions_page
from memory_service.tensions.models import MAX_DESCRIPTION_LENGTH, MAX_NOTE_LENGTH, STATUSES
from memory_service.tensions.serializers import (
    MAX_ID_LENGTH,
    TensionListQuerySerializer,
    TensionOpenSerializer,
    TensionResolveSerializer,
    TensionSerializer,
)
from shared.openapi import array, one_of, query, record, ref


class TensionViewSet(viewsets.ViewSet):
    """An organisation's contradictions: list them, record one, resolve one."""

    http_method_names = ["get", "post", "head"]
    required_scopes = {"list": MEMORIES_READ, "create": MEMORIES_WRITE, "resolve": MEMORIES_WRITE}
    query_parameters = {"list": tuple(TensionListQuerySerializer().fields)}

    @operation(
        "List contradictions, newest first",
        response=paged("tensions", ref("Tension")),
        parameters=[
            query("status", one_of(STATUSES), "Only tensions in this status."),
            *PAGE_QUERY,
        ],
    )
    def list(self, request: Request) -> Response:
        params = TensionListQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        page, next_cursor = tensions_page(org=caller_organisation(request), **params.validated_data)
        return Response(
            {"tensions": TensionSerializer(page, many=True).data, "nextCursor": next_cursor}
        )

    @operation(
        "Record that two held memories contradict each other",
        response=ref("Tension"),
        body=record(
            {
                "memoryIds": {**array(text(MAX_ID_LENGTH)), "minItems": 2, "maxItems": 2},
                "description": text(MAX_DESCRIPTION_LENGTH),
            },
            optional=("description",),
        ),
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

    @operation(
        "Resolve a tension: keep one memory (the other is archived) or both; a lesson is stored",
        response=ref("Tension"),
        # keep: one of the two memories' ids, or "both".
        body=record(
            {
                "keep": text(MAX_ID_LENGTH),
                "note": {**text(MAX_NOTE_LENGTH), "nullable": True},
            },
            optional=("note",),
        ),
        errors=("NotFound",),
        detail=True,
        operation_id="tensions_resolve",
    )
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
