from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from shared.openapi import INTEGER, one_of, query, record, ref
from storage_service import clock
from storage_service.accounts.authentication import caller_organisation
from storage_service.accounts.models import Organisation
from storage_service.accounts.permissions import BILLING_READ
from storage_service.accounts.rate_limiting import requests_this_hour
from storage_service.billing import counting
from storage_service.billing.held import pending_upload_bytes, trash_bytes
from storage_service.billing.report import usage_report
from storage_service.billing.windows import (
    GRANULARITIES,
    PERIOD_DAYS,
    QUERY_PARAMETERS,
    usage_window,
)
from storage_service.openapi import TIMESTAMP_OR_EMPTY, operation


class BillingView(APIView):
    required_permissions = {"get": BILLING_READ}

    @operation(
        "The plan's limits and the usage now",
        data=record(
            {
                "plan": record(
                    {
                        "name": {"type": "string", "enum": list(settings.PLANS)},
                        "requestsPerHour": INTEGER,
                        "storageLimit": INTEGER,
                        "maxKeys": INTEGER,
                    }
                ),
                "currentUsage": record(
                    {
                        "storage": INTEGER,
                        "files": INTEGER,
                        "requestsThisHour": INTEGER,
                        "trash": INTEGER,
                        "pendingUploads": INTEGER,
                    }
                ),
            }
        ),
    )
    def get(self, request: Request) -> Response:
        org = Organisation.objects.get(pk=caller_organisation(request).pk)  # fresh usage counters
        limits = org.plan_limits
        return Response(
            {
                "plan": {
                    "name": org.plan,
                    "requestsPerHour": limits["requestsPerHour"],
                    "storageLimit": limits["storageLimit"],
                    "maxKeys": settings.MAX_KEYS,
                },
                "currentUsage": {
                    "storage": org.storage_used,
                    "files": org.file_count,
                    "requestsThisHour": requests_this_hour(org),
                    "trash": trash_bytes(org),
                    "pendingUploads": pending_upload_bytes(org),
                },
            }
        )


class UsageView(APIView):
    required_permissions = {"get": BILLING_READ}
    query_parameters = {"get": QUERY_PARAMETERS}

    @operation(
        "Usage over a window: summary, timeline, breakdowns and projections",
        data=ref("UsageReport"),
        parameters=[
            # An empty value is the same as none (the default applies).
            query("period", one_of(["", *PERIOD_DAYS]), "Default month."),
            query("start", TIMESTAMP_OR_EMPTY, "ISO 8601; with end, wins over period."),
            query("end", TIMESTAMP_OR_EMPTY, "ISO 8601; default now."),
            query("granularity", one_of(["", *GRANULARITIES]), "Bucket size."),
        ],
        errors=("INVALID_DATE_RANGE", "DATE_RANGE_TOO_LARGE"),
    )
    def get(self, request: Request) -> Response:
        now = clock.now()
        window = usage_window(request.query_params, now=now)
        org = caller_organisation(request)
        counting.flush(org.pk)  # counts still in Redis belong in the report
        return Response(usage_report(org=org, window=window, now=now.timestamp()))
