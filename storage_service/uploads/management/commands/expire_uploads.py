from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand

from storage_service import clock
from storage_service.files.services import spill_sweep
from storage_service.uploads.services import uploads_expire


class Command(BaseCommand):
    help = (
        "Delete the stored parts of multipart uploads past their expiry, and upload spill files "
        "older than a day (run it from cron)."
    )

    def handle(self, *args, **options) -> None:
        now = clock.now()
        sweep = uploads_expire(now=now)
        spilled = spill_sweep(now=now, older_than=timedelta(days=1))
        if spilled:
            self.stdout.write(f"Removed {spilled} abandoned upload spill files.")
        self.stdout.write(
            f"Removed {sweep.parts} parts ({sweep.bytes} bytes) "
            f"of {sweep.uploads} expired or finished uploads."
        )
