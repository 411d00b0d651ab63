from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ
from memory_service.recall.search import recall
from memory_service.recall.serializers import HitSerializer, RecallRequestSerializer


class RecallView(APIView):
    """Deterministic ranked lookup of the organisation's memories."""

    # No OPTIONS: the API publishes no metadata, and Allow lists what is really answered.
    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_READ}

    def post(self, request: Request) -> Response:
        body = RecallRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hits = recall(
            org=caller_organisation(request),
            query=body.validated_data["query"],
            limit=body.validated_data["limit"],
        )
        return Response({"results": HitSerializer(hits, many=True).data, "empty": not hits})
