from django.apps import AppConfig


class UploadsConfig(AppConfig):
    name = "storage_service.uploads"
    label = "uploads"
    default_auto_field = "django.db.models.BigAutoField"
