"""GET /v1/stats: what an organisation holds, its open contradictions and its weak domains."""

from __future__ import annotations

from rest_framework.views import APIView


class StatsView(APIView):
    http_method_names = ["get", "head"]
