"""POST /v1/context: parse, build, render."""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.scopes import MEMORIES_READ
from memory_service.context.serializers import (
    MAX_PINS,
    MAX_TEXT_LENGTH,
    MAX_TOKENS,
    MEMORY_ID_LENGTH,
    ContextRequestSerializer,
    block_body,
)
from memory_service.context.services import context_build
from memory_service.memories.models import MAX_SESSION_ID_LENGTH
from memory_service.openapi import operation, text
from shared.openapi import array, record, ref


class ContextView(APIView):
    """The block to place in front of a system prompt, with an account of every line."""

    http_method_names = ["post"]
    required_scopes = {"post": MEMORIES_READ}

    @operation(
        "Build the block to place in front of a system prompt, under the token ceiling",
        response=ref("ContextBlock"),
        body=record(
            {
                "userMessage": text(MAX_TEXT_LENGTH, blank=True),
                "transcript": text(MAX_TEXT_LENGTH, blank=True),
                "sessionId": text(MAX_SESSION_ID_LENGTH, blank=True),
                # Memory ids whose bodies go in whatever their tier.
                "forceFull": {**array(text(MEMORY_ID_LENGTH)), "maxItems": MAX_PINS},
                "maxTokens": {"type": "integer", "minimum": 1, "maximum": MAX_TOKENS},
            },
            optional=("userMessage", "transcript", "sessionId", "forceFull", "maxTokens"),
        ),
    )
    def post(self, request: Request) -> Response:
        body = ContextRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        block = context_build(
            org=caller_organisation(request),
            message=data["userMessage"],
            transcript=data["transcript"],
            session_id=data["sessionId"],
            force_full=data["forceFull"],
            ceiling=data.get("maxTokens", settings.MEMORY_MAX_TOTAL_TOKENS),
            max_index_items=settings.MEMORY_MAX_INDEX_ITEMS,
        )
        return Response(block_body(block))
