"""``python -m storage_service <command>`` works like ``manage.py``."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "storage_service.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 - load the settings now: a bad one is one line
    except ImproperlyConfigured as exc:
        sys.exit(f"storage_service: {exc}")

    execute_from_command_line([f"{sys.executable} -m storage_service", *sys.argv[1:]])


if __name__ == "__main__":
    main()
