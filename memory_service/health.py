"""GET /v1/health: liveness, limits, extractor mode and unusable environment values."""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service.config import extractor_mode


class HealthView(APIView):
    """Answer without a key and without touching the database; nothing in it belongs to a tenant."""

    authentication_classes = []
    permission_classes = []
    http_method_names = ["get", "head"]  # no OPTIONS: the API publishes no metadata

    def get(self, request: Request) -> Response:
        return Response(
            {
                "ok": True,
                "service": "memory",
                "extractor": extractor_mode(settings.MEMORY_MODEL_URL, settings.MEMORY_MODEL_NAME),
                "limits": {
                    "maxTotalTokens": settings.MEMORY_MAX_TOTAL_TOKENS,
                    "maxIndexItems": settings.MEMORY_MAX_INDEX_ITEMS,
                    "defaultRecallLimit": settings.MEMORY_DEFAULT_RECALL_LIMIT,
                },
                "problems": list(settings.MEMORY_CONFIG_PROBLEMS),
            }
        )
