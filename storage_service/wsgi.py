import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "storage_service.settings")

application = get_wsgi_application()

# What gunicorn answers before the application (shared/gunicorn_worker.py), in the envelope.
from storage_service.api import early_error  # noqa: E402

application.early_error = early_error  # type: ignore[attr-defined]
