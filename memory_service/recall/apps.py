from django.apps import AppConfig


class RecallConfig(AppConfig):
    name = "memory_service.recall"
    verbose_name = "Recall index"
    default_auto_field = "django.db.models.BigAutoField"
