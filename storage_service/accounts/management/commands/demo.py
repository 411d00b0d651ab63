from __future__ import annotations

from django.core.management.base import BaseCommand

from storage_service import clock
from storage_service.accounts import permissions, services

DEMO_ORG = "demo"
# What `make run` says from its second run on, when the key it printed once may be long gone.
LOST_KEY = (
    "storage: the demo key was printed on the first run only; a new one, if it is lost:\n"
    "  SECRET_KEY=$(cat var/storage.secret) .venv/bin/python -m storage_service createkey"
    " --org demo --name demo-2\n"
)


class Command(BaseCommand):
    help = "On first run, create the demo organisation and one full-permission key, and print it."

    def handle(self, *args, **options) -> None:
        org, created = services.organisation_get_or_create(name=DEMO_ORG)
        if not created:
            self.stdout.write(LOST_KEY)
            return
        _, secret = services.key_create(
            org=org, name="demo", permissions=[permissions.ADMIN], expires_at=None, now=clock.now()
        )
        self.stdout.write(
            "\n=== Storage service demo key (shown once, never again) ===\n"
            f"  organisation: {org.name}   permissions: admin\n"
            f"  export STORAGE_KEY={secret}\n"
            '  curl -H "Authorization: Bearer $STORAGE_KEY" http://127.0.0.1:8001/v1/keys\n'
        )
