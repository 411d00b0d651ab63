from django.apps import AppConfig


class SelfModelConfig(AppConfig):
    name = "memory_service.selfmodel"
    verbose_name = "Self-model"
    default_auto_field = "django.db.models.BigAutoField"
