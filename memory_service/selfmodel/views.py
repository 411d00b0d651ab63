"""GET /v1/self-model and POST /v1/self-model/outcome: parse, call a service, render."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service import clock
from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE
from memory_service.selfmodel.listing import domains_page
from memory_service.selfmodel.serializers import (
    DomainSerializer,
    OutcomeSerializer,
    SelfModelQuerySerializer,
)
from memory_service.selfmodel.services import outcome_record


class SelfModelView(APIView):
    """Reliability, failure patterns and strategies per domain, in key order."""

    # No OPTIONS: the API publishes no metadata, and Allow lists what is really answered.
    http_method_names = ["get", "head"]
    required_scopes = {"get": MEMORIES_READ, "head": MEMORIES_READ}
    query_parameters = dict.fromkeys(("get", "head"), tuple(SelfModelQuerySerializer().fields))

    def get(self, request: Request) -> Response:
        query = SelfModelQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        page, next_cursor = domains_page(org=caller_organisation(request), **query.validated_data)
        return Response(
            {"domains": DomainSerializer(page, many=True).data, "nextCursor": next_cursor}
        )


class OutcomeView(APIView):
    """Record how a domain went."""

    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_WRITE}

    def post(self, request: Request) -> Response:
        body = OutcomeSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        domain = outcome_record(
            org=caller_organisation(request),
            domain=body.validated_data["domain"],
            success=body.validated_data["success"],
            failure_pattern=body.validated_data.get("failurePattern", ""),
            strategy=body.validated_data.get("strategy", ""),
            now=clock.now(),
        )
        return Response(DomainSerializer(domain).data)
