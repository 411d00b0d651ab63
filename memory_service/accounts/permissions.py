"""The DRF permission class that enforces the scope each action needs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rest_framework.permissions import BasePermission

from memory_service import errors
from memory_service.accounts.models import ApiKey, Membership

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class HasRequiredScope(BasePermission):
    """Deny by default: a view names the scope each action needs in ``required_scopes``.

    A key must hold that scope. A member's session is only accepted by the views that list the
    session authentication, and there a member acts for their organisation without scopes.
    """

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method not in view.allowed_methods:
            return True  # not routed here: the view answers InvalidRequest with Allow next
        credential = request.auth
        if not isinstance(credential, ApiKey | Membership):
            raise errors.Unauthorized()
        needed = getattr(view, "required_scopes", {}).get(
            getattr(view, "action", None) or request.method.lower()
        )
        if needed is None:
            raise errors.Forbidden("No scope grants this operation.")
        if isinstance(credential, ApiKey) and needed not in credential.scopes:
            raise errors.Forbidden(f"This API key lacks the {needed} scope.", required_scope=needed)
        return True
