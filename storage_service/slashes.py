"""Django's trailing-slash redirect, for the pages that need it (the admin's) and not the API."""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.common import CommonMiddleware


class CommonMiddlewareOutsideApi(CommonMiddleware):
    """The API's routes take a path with or without its slash already, so an unknown /v1 path
    answers 404 at once instead of being resolved twice more to look for a slashed twin."""

    def should_redirect_with_slash(self, request: HttpRequest) -> bool:
        return not request.path_info.startswith("/v1/") and super().should_redirect_with_slash(
            request
        )
