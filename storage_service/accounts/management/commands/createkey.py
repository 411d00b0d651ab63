from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from storage_service import clock, errors
from storage_service.accounts import permissions, services
from storage_service.accounts.models import Organisation


class Command(BaseCommand):
    help = "Create an API key (and its organisation if new); the secret is the last line printed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--org", required=True, help="Organisation name")
        parser.add_argument("--name", required=True, help="Key name")
        parser.add_argument(
            "--permissions", default=",".join(permissions.ALL), help="Comma-separated permissions"
        )
        parser.add_argument("--plan", choices=Organisation.Plan.values, help="Organisation plan")

    def handle(self, *args, **options) -> None:
        wanted = [p.strip() for p in options["permissions"].split(",") if p.strip()]
        unknown = [p for p in wanted if p not in permissions.ALL]
        if unknown or not wanted:
            raise CommandError(
                f"Unknown permissions {unknown}; valid: {', '.join(permissions.ALL)}"
            )
        name = options["name"]
        if not name.strip() or len(name) > 100 or not name.isprintable():
            raise CommandError("The name must be 1 to 100 printable characters.")
        org, created = services.organisation_get_or_create(
            name=options["org"], plan=options["plan"]
        )
        try:
            key, secret = services.key_create(
                org=org, name=name, permissions=wanted, expires_at=None, now=clock.now()
            )
        except errors.KeyLimitExceeded as exc:
            raise CommandError(
                f"{org} already has {exc.details['currentKeys']} active keys."
            ) from exc
        self.stderr.write(
            f"{'Created' if created else 'Using'} organisation {org.name} ({org.pk}, "
            f"plan {org.plan}); key {key.pk} with {', '.join(wanted)}"
        )
        self.stdout.write(secret)
