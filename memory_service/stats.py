"""GET /v1/stats: what an organisation holds, its contradictions, its weak domains, its turns."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memory_service.accounts.authentication import caller_organisation
from memory_service.accounts.models import Organisation
from memory_service.accounts.scopes import STATS_READ
from memory_service.memories.listing import tier_counts
from memory_service.memories.models import Turn
from memory_service.openapi import operation
from memory_service.selfmodel.listing import weak_domains
from memory_service.selfmodel.serializers import DomainSerializer
from memory_service.tensions.listing import open_tensions, tension_counts
from memory_service.tensions.serializers import TensionSerializer
from shared.openapi import ref

# The open tensions shown, newest first; GET /v1/tensions?status=open lists them all.
ACTIVE_TENSIONS = 10
# Weak domains shown, weakest first; GET /v1/self-model lists every domain.
WEAK_DOMAINS = 50


def organisation_stats(*, org: Organisation) -> dict[str, Any]:
    """Return the stats body: counts by tier, tensions by status, weak domains, active
    tensions and the number of turns learned from (lookups are not lessons)."""
    return {
        "memories": tier_counts(org),
        "tensions": tension_counts(org=org),
        "weakDomains": DomainSerializer(weak_domains(org=org, limit=WEAK_DOMAINS), many=True).data,
        "activeTensions": TensionSerializer(
            open_tensions(org=org, limit=ACTIVE_TENSIONS), many=True
        ).data,
        "turns": Turn.objects.for_org(org).filter(lookup=False).count(),
    }


class StatsView(APIView):
    http_method_names = ["get", "head"]
    required_scopes = {"get": STATS_READ, "head": STATS_READ}

    @operation("Counts, weak domains, open tensions and turns learned from", response=ref("Stats"))
    def get(self, request: Request) -> Response:
        return Response(organisation_stats(org=caller_organisation(request)))
