from django.urls import re_path

from storage_service.billing.views import BillingView, UsageView

urlpatterns = [
    re_path(r"^billing/?$", BillingView.as_view(), name="billing"),
    re_path(r"^billing/usage/?$", UsageView.as_view(), name="billing-usage"),
]
