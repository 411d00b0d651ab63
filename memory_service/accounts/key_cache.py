"""The memory service's cache of resolved keys (``shared.key_cache``)."""

from __future__ import annotations

from django.conf import settings

from shared.key_cache import ServiceKeys

KEYS = ServiceKeys(
    models=("memory_accounts.ApiKey", "memory_accounts.Organisation"),
    redis_url=lambda: settings.REDIS_URL,
    namespace=lambda: settings.REDIS_NAMESPACE,
)
