from django.apps import AppConfig


class FilesConfig(AppConfig):
    name = "storage_service.files"
    label = "files"
    default_auto_field = "django.db.models.BigAutoField"
