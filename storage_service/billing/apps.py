from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "storage_service.billing"
    label = "billing"
    verbose_name = "Billing"
