from __future__ import annotations

from django.core.management.base import BaseCommand

from storage_service import clock
from storage_service.uploads.services import uploads_expire


class Command(BaseCommand):
    help = "Delete the stored parts of multipart uploads past their expiry (run it from cron)."

    def handle(self, *args, **options) -> None:
        sweep = uploads_expire(now=clock.now())
        self.stdout.write(
            f"Removed {sweep.parts} parts ({sweep.bytes} bytes) "
            f"of {sweep.uploads} expired or finished uploads."
        )
