from django.apps import AppConfig


class TensionsConfig(AppConfig):
    name = "memory_service.tensions"
    verbose_name = "Tensions"
    default_auto_field = "django.db.models.BigAutoField"
