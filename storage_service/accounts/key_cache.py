"""The storage service's cache of resolved keys (``shared.key_cache``)."""

from __future__ import annotations

from django.conf import settings

from shared.key_cache import ServiceKeys

KEYS = ServiceKeys(
    models=("accounts.ApiKey", "accounts.Organisation"),
    redis_url=lambda: settings.REDIS_URL,
    namespace=lambda: settings.RATE_LIMIT_NAMESPACE,
    # Moved by every upload and deletion, and read fresh where they decide anything.
    org_counters=("storage_used", "file_count"),
)
