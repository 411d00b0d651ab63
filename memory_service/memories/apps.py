from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "memory_service.memories"
    verbose_name = "Memories"
    default_auto_field = "django.db.models.BigAutoField"
