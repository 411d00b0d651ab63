"""WSGI entry point of the bare DRF project (the overhead bench's baseline)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.bench.bare.settings")

application = get_wsgi_application()
