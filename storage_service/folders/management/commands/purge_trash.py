from __future__ import annotations

from datetime import timedelta

from django.core.management.base import BaseCommand, CommandError, CommandParser

from storage_service import clock
from storage_service.folders import trash


class Command(BaseCommand):
    help = "Delete for good the folders and files that went to the trash DAYS or more ago."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=trash.RESTORE_WINDOW.days,
            help="Age in days of what is purged (default: the 30-day restore window)",
        )

    def handle(self, *args, **options) -> None:
        if options["days"] < 0:
            raise CommandError("--days must be 0 or more.")
        now = clock.now()
        older_than = timedelta(days=options["days"])
        purged = trash.trash_purge(now=now, older_than=older_than)
        busy = f"; {purged.busy} busy folder(s) left for the next run" if purged.busy else ""
        self.stdout.write(
            f"Purged {purged.folders} folder(s) and {purged.files} file(s), "
            f"{purged.freed_space} bytes, trashed on or before {clock.iso(now - older_than)}{busy}."
        )
