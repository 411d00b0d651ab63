from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from memory_service import clock
from memory_service.accounts import services
from memory_service.accounts.models import ApiKey, Organisation
from memory_service.accounts.scopes import DEFAULT_SCOPES
from memory_service.accounts.validators import validate_scopes


class Command(BaseCommand):
    help = "Create an API key (and its organisation if new); the secret is the last line printed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--org", required=True, help="Organisation name")
        parser.add_argument("--name", required=True, help="Key name")
        parser.add_argument(
            "--scopes", default=",".join(DEFAULT_SCOPES), help="Comma-separated scopes"
        )

    def handle(self, *args: str, **options: str) -> None:
        scopes = list(dict.fromkeys(s.strip() for s in options["scopes"].split(",") if s.strip()))
        try:
            validate_scopes(scopes)
            Organisation._meta.get_field("name").clean(options["org"], None)
            ApiKey._meta.get_field("name").clean(options["name"], None)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        org, created = services.organisation_get_or_create(name=options["org"])
        key, secret = services.key_create(
            org=org, name=options["name"], scopes=scopes, now=clock.now()
        )
        self.stderr.write(
            f"{'Created' if created else 'Using'} organisation {org.name} ({org.pk}); "
            f"key {key.pk} ({key.prefix}…) with {', '.join(scopes)}. The secret follows, once."
        )
        self.stdout.write(secret)
