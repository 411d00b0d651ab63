"""The contract's permission strings and the DRF permission class that enforces them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import BasePermission

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

from storage_service import errors
from storage_service.accounts.models import ApiKey

FILES_READ = "files:read"
FILES_WRITE = "files:write"
FOLDERS_READ = "folders:read"
FOLDERS_WRITE = "folders:write"
KEYS_READ = "keys:read"
KEYS_WRITE = "keys:write"
BILLING_READ = "billing:read"
ADMIN = "admin"

ALL = [
    FILES_READ,
    FILES_WRITE,
    FOLDERS_READ,
    FOLDERS_WRITE,
    KEYS_READ,
    KEYS_WRITE,
    BILLING_READ,
    ADMIN,
]


def grants(held: Iterable[str], needed: str) -> bool:
    """Tell whether permissions ``held`` grant ``needed``; ``admin`` grants everything."""
    held = set(held)
    return ADMIN in held or needed in held


def covers(held: Iterable[str], wanted: Iterable[str]) -> bool:
    """Tell whether ``held`` grants every permission in ``wanted``."""
    held = set(held)
    return ADMIN in held or set(wanted) <= held


class HasRequiredPermission(BasePermission):
    """Deny by default: a view names each action's permission in ``required_permissions``."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        key = request.auth
        if not isinstance(key, ApiKey):
            raise NotAuthenticated()
        assert request.method is not None  # DRF's request always has one
        method = request.method.lower()
        if not hasattr(view, method):
            return True  # the method is not routed here: DRF answers 405 next
        needed = getattr(view, "required_permissions", {}).get(
            getattr(view, "action", None) or method
        )
        if needed is None:
            raise errors.AccessDenied()
        if not grants(key.permissions, needed):
            raise errors.AccessDenied(
                f"This API key lacks the {needed} permission.", requiredPermission=needed
            )
        return True
