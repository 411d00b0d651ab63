"""Settings for mypy only (``make lint``): every app of both services in one registry.

django-stubs' plugin loads one settings module, and the benches import both services; their app
labels differ (``accounts`` and ``memory_accounts``), so one registry holds both. A setting either
service defines resolves to its type; a name neither defines is an error.
"""

import os

os.environ.setdefault("SECRET_KEY", "typecheck")

from memory_service.settings import *  # noqa: F403
from memory_service.settings import INSTALLED_APPS as _MEMORY_APPS
from storage_service.settings import *  # noqa: F403
from storage_service.settings import INSTALLED_APPS as _STORAGE_APPS

INSTALLED_APPS = [
    *_STORAGE_APPS,
    *(app for app in _MEMORY_APPS if app not in _STORAGE_APPS),
    "tests.shared.counters",
]
