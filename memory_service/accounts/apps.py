from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "memory_service.accounts"
    # Not "accounts": the storage service's app has that label, and the two never share a project.
    label = "memory_accounts"
    verbose_name = "Organisations and API keys"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from memory_service.accounts.key_cache import KEYS

        KEYS.connect()
