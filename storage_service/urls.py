from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path

from shared.openapi_views import DocsView, SchemaView
from shared.readiness import database_check, ready_view, redis_check
from storage_service import api
from storage_service.files.blobs import blob_store

urlpatterns = [
    path("admin/", admin.site.urls),
    # For a load balancer: outside /v1, so neither a key, the rate limit nor usage applies.
    path(
        "ready",
        ready_view(
            {
                "database": database_check,
                "redis": lambda: redis_check(settings.REDIS_URL),
                "objectStore": lambda: blob_store().readiness(),
            },
            refuse_method=api.method_not_allowed,
        ),
        name="ready",
    ),
    path("v1/", include("storage_service.accounts.urls")),
    path("v1/", include("storage_service.billing.urls")),
    # Multipart routes (files/multipart-upload-...) go before files/<fileId>.
    path("v1/", include("storage_service.uploads.urls")),
    path("v1/", include("storage_service.files.urls")),
    path("v1/", include("storage_service.folders.urls")),
    # The OpenAPI 3 description and a page to browse it (storage_service/openapi.py).
    re_path(r"^v1/schema/?$", SchemaView.as_view(), name="schema"),
    re_path(r"^v1/docs/?$", DocsView.as_view(url_name="schema"), name="docs"),
    # Every other /v1 path answers NOT_FOUND in the envelope, whatever DEBUG says.
    re_path(r"^v1/", api.route_not_found),
]

handler400 = "storage_service.api.bad_request"
handler403 = "storage_service.api.permission_denied"
handler404 = "storage_service.api.route_not_found"
handler500 = "storage_service.api.server_error"
