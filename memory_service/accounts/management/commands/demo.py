from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from memory_service import clock
from memory_service.accounts import services
from memory_service.accounts.scopes import ALL_SCOPES

DEMO_ORG = "demo"
# What `make run` says from its second run on, when the key it printed once may be long gone.
LOST_KEY = (
    "memory: the demo key was printed on the first run only; a new one, if it is lost:\n"
    "  SECRET_KEY=$(cat var/memory.secret) .venv/bin/python -m memory_service createkey"
    " --org demo --name demo-2\n"
)


class Command(BaseCommand):
    help = "On first run, create the demo organisation and one key with every scope, and print it."

    def handle(self, *args: str, **options: str) -> None:
        org, created = services.organisation_get_or_create(name=DEMO_ORG)
        if not created:
            self.stdout.write(LOST_KEY)
            return
        _, secret = services.key_create(org=org, name="demo", scopes=ALL_SCOPES, now=clock.now())
        url = f"http://127.0.0.1:8002/{settings.MEMORY_URL_PREFIX}v1/keys"
        self.stdout.write(
            "\n=== Memory service demo key (shown once, never again) ===\n"
            f"  organisation: {org.name}   scopes: {', '.join(ALL_SCOPES)}\n"
            f"  export MEMORY_KEY={secret}\n"
            f'  curl -H "Authorization: Bearer $MEMORY_KEY" {url}\n'
        )
