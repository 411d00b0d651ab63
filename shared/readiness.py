"""GET /ready: whether this instance can serve, for a load balancer or an orchestrator.

Liveness (the process answers) is not readiness (what it needs answers too): an instance whose
database is down is alive, and restarting it would not help, but it should get no traffic. Each
check names a dependency and says ``ok``, ``unreachable`` or ``not configured``; nothing else of
the failure is shown (the endpoint needs no key, and an error can hold a host name or a URL with
credentials). The answer is 200 when every configured dependency is ``ok``, else 503.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from shared.rate_limits import redis_client

OK = "ok"
UNREACHABLE = "unreachable"
NOT_CONFIGURED = "not configured"

Check = Callable[[], str]


def database_check(alias: str = "default") -> str:
    """Run ``SELECT 1`` on the database ``alias``."""
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any failure to reach it: the reason is not shown
        return UNREACHABLE
    return OK


def redis_check(url: str | None) -> str:
    """PING the Redis at ``url``, when one is configured."""
    if not url:
        return NOT_CONFIGURED
    try:
        redis_client(url).ping()
    except Exception:
        return UNREACHABLE
    return OK


def readiness(checks: Mapping[str, Check]) -> tuple[bool, dict[str, str]]:
    """Run every check; ready when none says ``unreachable``."""
    results = {name: check() for name, check in checks.items()}
    return UNREACHABLE not in results.values(), results


def ready_view(
    checks: Mapping[str, Check], *, refuse_method: Callable[[str], HttpResponse]
) -> Callable[[HttpRequest], HttpResponse]:
    """A view answering ``{"ready": ..., "checks": {...}}``, 200 or 503, to GET and HEAD; another
    method gets ``refuse_method``'s answer (the service's own error shape) and ``Allow``."""

    @csrf_exempt  # another method is refused here, not by the CSRF check's HTML page
    def view(request: HttpRequest) -> HttpResponse:
        if request.method not in {"GET", "HEAD"}:
            response = refuse_method(f'Method "{request.method}" not allowed.')
            response["Allow"] = "GET, HEAD"
            return response
        ready, results = readiness(checks)
        response = JsonResponse({"ready": ready, "checks": results}, status=200 if ready else 503)
        response["Cache-Control"] = "no-store"
        return response

    return view
