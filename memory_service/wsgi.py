import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")

application = get_wsgi_application()

# What gunicorn answers before the application (shared/gunicorn_worker.py), in its error shape.
from memory_service.api import early_error  # noqa: E402

application.early_error = early_error  # type: ignore[attr-defined]

# Read the tokenizer's vocabulary now (about 0.2 s), not in the first context request.
from memory_service.context.tokens import encoding  # noqa: E402

encoding()
