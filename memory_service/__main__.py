"""``python -m memory_service <command>`` works like ``manage.py``."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memory_service.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line([f"{sys.executable} -m memory_service", *sys.argv[1:]])


if __name__ == "__main__":
    main()
