"""Routes: the API under MEMORY_URL_PREFIX + v1/, the admin, and JSON for everything unknown."""

import re

from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path

from memory_service import api
from memory_service.health import HealthView
from memory_service.stats import StatsView
from shared.openapi_views import DocsView, SchemaView
from shared.readiness import database_check, ready_view, redis_check

PREFIX = settings.MEMORY_URL_PREFIX

v1: list[URLPattern | URLResolver] = [
    re_path(r"^health/?$", HealthView.as_view(), name="health"),
    path("", include("memory_service.accounts.urls")),
    path("", include("memory_service.memories.urls")),
    path("", include("memory_service.context.urls")),
    path("", include("memory_service.tensions.urls")),
    path("", include("memory_service.selfmodel.urls")),
    re_path(r"^stats/?$", StatsView.as_view(), name="stats"),
    # The OpenAPI 3 description (YAML, or JSON with ?format=json) and a page to browse it.
    re_path(r"^schema/?$", SchemaView.as_view(), name="schema"),
    re_path(r"^docs/?$", DocsView.as_view(url_name="schema"), name="docs"),
]

urlpatterns = [
    # For a load balancer: outside the API, where no key is asked for.
    path(
        "ready",
        ready_view(
            {"database": database_check, "redis": lambda: redis_check(settings.REDIS_URL)},
            refuse_method=api.method_not_allowed,
        ),
        name="ready",
    ),
    path(f"{PREFIX}v1/", include(v1)),
    path("admin/", admin.site.urls),
    # Every other path under the prefix answers NotFound as JSON, whatever DEBUG says; with an
    # empty prefix that is every path but the admin's.
    re_path(rf"^{re.escape(PREFIX)}", api.route_not_found),
]

admin.site.site_header = "Memory service"
admin.site.site_title = "Memory service admin"

handler400 = "memory_service.api.bad_request"
handler403 = "memory_service.api.permission_denied"
handler404 = "memory_service.api.route_not_found"
handler500 = "memory_service.api.server_error"
