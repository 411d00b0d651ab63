"""GET /v1/self-model and POST /v1/self-model/outcome: parse, call a service, render."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service import clock
from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE
from memory_service.openapi import CONTROLS, UNPRINTABLE, operation, paged, text
from memory_service.selfmodel.listing import domains_page
from memory_service.selfmodel.models import MAX_DOMAIN_LENGTH, MAX_NOTE_LENGTH
from memory_service.selfmodel.serializers import (
    DomainSerializer,
    OutcomeSerializer,
    SelfModelQuerySerializer,
)
from memory_service.selfmodel.services import outcome_record
from shared.openapi import BOOLEAN, query, record, ref

# A failure pattern or a strategy: line breaks are folded into spaces, other controls refused.
NOTE = text(MAX_NOTE_LENGTH, blank=True, refused=CONTROLS)


class SelfModelView(APIView):
    """Reliability, failure patterns and strategies per domain, in key order."""

    # No OPTIONS: the API publishes no metadata, and Allow lists what is really answered.
    http_method_names = ["get", "head"]
    required_scopes = {"get": MEMORIES_READ, "head": MEMORIES_READ}
    query_parameters = dict.fromkeys(("get", "head"), tuple(SelfModelQuerySerializer().fields))

    @operation(
        "Reliability, failure patterns and strategies of each domain",
        response=paged("domains", ref("SelfModelDomain")),
        parameters=[
            query("domain", text(MAX_DOMAIN_LENGTH), "Only this domain."),
            query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "Default 50."),
            query("cursor", text(1000), "The nextCursor of the page before."),
        ],
    )
    def get(self, request: Request) -> Response:
        params = SelfModelQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        page, next_cursor = domains_page(org=caller_organisation(request), **params.validated_data)
        return Response(
            {"domains": DomainSerializer(page, many=True).data, "nextCursor": next_cursor}
        )


class OutcomeView(APIView):
    """Record how a domain went."""

    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_WRITE}

    @operation(
        "Record how a domain went; the answer is the domain's record",
        response=ref("SelfModelDomain"),
        body=record(
            {
                "domain": text(MAX_DOMAIN_LENGTH, refused=UNPRINTABLE),
                "success": BOOLEAN,
                "failurePattern": NOTE,
                "strategy": NOTE,
            },
            optional=("failurePattern", "strategy"),
        ),
    )
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
