from django.apps import AppConfig


class FoldersConfig(AppConfig):
    name = "storage_service.folders"
    label = "folders"
    default_auto_field = "django.db.models.BigAutoField"
