"""POST /v1/turns, POST /v1/recall and the /v1/memories endpoints: parse, call, render."""

from __future__ import annotations

from rest_framework import viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service import clock, errors
from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ, MEMORIES_WRITE
from memory_service.extraction.candidates import KINDS
from memory_service.memories.listing import memories_page, tier_counts
from memory_service.memories.lookup import memories_recall
from memory_service.memories.models import (
    MAX_CONTENT_LENGTH,
    MAX_NAME_LENGTH,
    MAX_SESSION_ID_LENGTH,
    TIERS,
    Memory,
)
from memory_service.memories.serializers import (
    MAX_LIMIT,
    MAX_MESSAGE_LENGTH,
    MAX_QUERY_LENGTH,
    MAX_STATEMENTS,
    HitSerializer,
    MemoriesStoreSerializer,
    MemoryListQuerySerializer,
    MemoryMoveSerializer,
    MemorySerializer,
    RecallRequestSerializer,
    TurnSerializer,
    outcome_body,
)
from memory_service.memories.services.memories import (
    Statement,
    memories_store,
    memory_forget,
    memory_move,
)
from memory_service.memories.services.turns import turn_learn
from memory_service.openapi import PAGE_QUERY, operation, text
from shared.openapi import BOOLEAN, NULLABLE_STRING, array, one_of, query, record, ref

# One statement to store, with what the rules would otherwise guess.
STATEMENT = {
    "content": text(MAX_CONTENT_LENGTH),
    "kind": one_of(KINDS),
    "tier": one_of(TIERS),
    "domain": text(MAX_NAME_LENGTH, blank=True),
}
GUESSED = ("kind", "tier", "domain")
SESSION_ID = text(MAX_SESSION_ID_LENGTH, blank=True)


class TurnView(APIView):
    """Learn from a finished turn."""

    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_WRITE}

    @operation(
        "Learn from a finished turn: what was stored, merged or rejected, and why",
        response=ref("TurnResult"),
        body=record(
            {
                "userMessage": text(MAX_MESSAGE_LENGTH, trimmed=False),
                "assistantResponse": text(MAX_MESSAGE_LENGTH, blank=True),
                "sessionId": SESSION_ID,
            },
            optional=("sessionId",),
        ),
        errors=("ModelFailure",),
    )
    def post(self, request: Request) -> Response:
        body = TurnSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        _, outcome = turn_learn(
            org=caller_organisation(request),
            user_message=body.validated_data["userMessage"],
            assistant_response=body.validated_data["assistantResponse"],
            session_id=body.validated_data.get("sessionId", ""),
            now=clock.now(),
        )
        return Response(outcome_body(outcome))


class MemoryViewSet(viewsets.ViewSet):
    """What an organisation holds: store, list, read, move between tiers, forget."""

    http_method_names = ["get", "post", "patch", "delete", "head"]
    required_scopes = {
        "list": MEMORIES_READ,
        "retrieve": MEMORIES_READ,
        "create": MEMORIES_WRITE,
        "partial_update": MEMORIES_WRITE,
        "destroy": MEMORIES_WRITE,
    }
    query_parameters = {"list": tuple(MemoryListQuerySerializer().fields)}

    @operation(
        "Store statements outright; a restatement is merged into the memory it restates",
        response=ref("TurnResult"),
        body={
            "oneOf": [
                record(
                    {
                        "memories": {
                            **array(record(STATEMENT, optional=GUESSED)),
                            "minItems": 1,
                            "maxItems": MAX_STATEMENTS,
                        },
                        "sessionId": SESSION_ID,
                    },
                    optional=("sessionId",),
                ),
                record({**STATEMENT, "sessionId": SESSION_ID}, optional=(*GUESSED, "sessionId")),
            ]
        },
    )
    def create(self, request: Request) -> Response:
        body = MemoriesStoreSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        outcome = memories_store(
            org=caller_organisation(request),
            statements=[Statement(**item) for item in body.validated_data["memories"]],
            session_id=body.validated_data.get("sessionId", ""),
            now=clock.now(),
        )
        return Response(outcome_body(outcome))

    @operation(
        "List held memories, newest first, with the counts by tier",
        response=record(
            {
                "memories": array(ref("Memory")),
                "counts": ref("TierCounts"),
                "nextCursor": NULLABLE_STRING,
            }
        ),
        parameters=[
            query("tier", one_of(TIERS), "Only memories in this tier."),
            query("kind", one_of(KINDS), "Only memories of this kind."),
            query("domain", text(MAX_NAME_LENGTH), "Only memories of this domain."),
            *PAGE_QUERY,
        ],
    )
    def list(self, request: Request) -> Response:
        params = MemoryListQuerySerializer(data=request.query_params.dict())
        params.is_valid(raise_exception=True)
        org = caller_organisation(request)
        page, next_cursor = memories_page(org=org, **params.validated_data)
        return Response(
            {
                "memories": MemorySerializer(page, many=True).data,
                "counts": tier_counts(org),
                "nextCursor": next_cursor,
            }
        )

    @operation("One memory in full", response=ref("Memory"), errors=("NotFound",), detail=True)
    def retrieve(self, request: Request, pk: str) -> Response:
        memory = Memory.objects.for_org(caller_organisation(request)).filter(pk=pk).first()
        if memory is None:
            raise errors.NotFound(resource="memory", id=pk)
        return Response(MemorySerializer(memory).data)

    @operation(
        "Move a memory to another tier",
        response=ref("Memory"),
        body=record({"tier": one_of(TIERS)}),
        errors=("NotFound",),
        detail=True,
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        body = MemoryMoveSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        memory = memory_move(
            org=caller_organisation(request),
            memory_id=pk,
            tier=body.validated_data["tier"],
            now=clock.now(),
        )
        return Response(MemorySerializer(memory).data)

    @operation(
        "Forget a memory; the answer is the memory forgotten",
        response=ref("Memory"),
        errors=("NotFound",),
        detail=True,
    )
    def destroy(self, request: Request, pk: str) -> Response:
        memory = memory_forget(org=caller_organisation(request), memory_id=pk)
        return Response(MemorySerializer(memory).data)


class RecallView(APIView):
    """Deterministic ranked lookup of the organisation's memories."""

    # No OPTIONS: the API publishes no metadata, and Allow lists what is really answered.
    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_READ}

    @operation(
        "Ranked lookup of held memories (BM25, no model); empty is not a failure",
        response=record({"results": array(ref("RecallHit")), "empty": BOOLEAN}),
        body=record(
            {
                "query": text(MAX_QUERY_LENGTH),
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
            },
            optional=("limit",),
        ),
    )
    def post(self, request: Request) -> Response:
        body = RecallRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        hits = memories_recall(
            org=caller_organisation(request),
            query=body.validated_data["query"],
            limit=body.validated_data["limit"],
        )
        return Response({"results": HitSerializer(hits, many=True).data, "empty": not hits})
