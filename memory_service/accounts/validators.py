"""Rules on names and scopes shared by the model, the API, the admin and the shell."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from memory_service.accounts.scopes import ALL_SCOPES


def validate_name(value: str) -> None:
    """Refuse a name that is only spaces or holds control or other non-printable characters."""
    # Codes differ from Django's own ("blank"), which a model field would swap for its message.
    if not value.strip():
        raise ValidationError("The name must not be empty or only spaces.", code="only_spaces")
    if not value.isprintable():
        raise ValidationError("The name must hold only printable characters.", code="not_printable")


def validate_scopes(value: Any) -> None:
    """Refuse anything but a non-empty list of known scopes."""
    if not isinstance(value, list) or not value:
        raise ValidationError("Give at least one scope.", code="empty")
    unknown = [str(scope)[:100] for scope in value if scope not in ALL_SCOPES]
    if unknown:
        raise ValidationError(
            f"Unknown scopes {', '.join(unknown[:10])}; the scopes are {', '.join(ALL_SCOPES)}.",
            code="unknown",
        )
