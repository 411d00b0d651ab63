"""GET /v1/health: liveness, limits, extractor mode, unusable environment values and a database
that cannot be reached."""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service.config import extractor_mode
from memory_service.openapi import operation
from shared.openapi import ref
from shared.readiness import OK, database_check

# Liveness stays true without a database (the process answers; restarting it would not help),
# but health says so, naming the variable as every other problem does.
DATABASE_UNREACHABLE = "DATABASE_URL: the database cannot be reached"


class HealthView(APIView):
    """Answer without a key; nothing in it belongs to a tenant. The database is asked only
    whether it answers (``SELECT 1``)."""

    authentication_classes = []
    permission_classes = []
    http_method_names = ["get", "head"]  # no OPTIONS: the API publishes no metadata

    @operation(
        "Liveness, limits, extractor mode and unusable settings (no key needed)",
        response=ref("Health"),
        key_needed=False,
    )
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
                "problems": [
                    *settings.MEMORY_CONFIG_PROBLEMS,
                    *([] if database_check() == OK else [DATABASE_UNREACHABLE]),
                ],
            }
        )
