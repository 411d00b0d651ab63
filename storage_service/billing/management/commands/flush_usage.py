from __future__ import annotations

from django.core.management.base import BaseCommand

from storage_service.billing import counting


class Command(BaseCommand):
    help = (
        "Move request counts waiting in Redis into the usage rollups (run it from cron every "
        "minute when REDIS_URL is set; without Redis requests are counted in the database)."
    )

    def handle(self, *args, **options) -> None:
        batches = counting.flush()
        self.stdout.write(f"Applied {batches} batches of usage counts.")
