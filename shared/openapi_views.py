"""The OpenAPI description's two pages, for both services: GET .../schema and GET .../docs.

drf-spectacular's views answer 500 when content negotiation fails (``?format=json`` with an
``Accept: text/html``, an unknown ``?format``) and render a failure (another method) in the
success's format (YAML, HTML). These never refuse a format and answer failures as JSON, through
the service's own exception handler (storage's envelope, memory's error body).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import Http404
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class SchemaNegotiation(DefaultContentNegotiation):
    """YAML, or JSON for ``?format=json`` or an Accept header asking for it. Never a refusal:
    the format asked for wins over an Accept header it does not satisfy, and YAML is the answer
    to a format there is none of (memory's AlwaysJSON ignores Accept too)."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        offered = list(renderers)
        try:
            return super().select_renderer(request, offered, format_suffix)
        except (NotAcceptable, Http404):
            wanted = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
            chosen = next((r for r in offered if r.format == wanted), offered[0])
            return chosen, chosen.media_type


class JSONFailures(APIView):
    """Answer a failure (another method, say) as JSON like the API does, whatever the view
    renders its success as."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if getattr(response, "exception", False):
            response.accepted_renderer = JSONRenderer()
            response.accepted_media_type = JSONRenderer.media_type
        return response


class SchemaView(JSONFailures, SpectacularAPIView):
    """The description, with no key (SPECTACULAR_SETTINGS)."""

    content_negotiation_class = SchemaNegotiation


class DocsView(JSONFailures, SpectacularSwaggerView):
    """Swagger UI, its assets served by the service itself (drf-spectacular-sidecar)."""
