from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "storage_service.accounts"
    label = "accounts"
    verbose_name = "Organisations and API keys"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from storage_service.accounts.key_cache import KEYS

        KEYS.connect()
