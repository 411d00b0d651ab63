from django.urls import re_path

from storage_service.billing.views import BillingView

urlpatterns = [re_path(r"^billing/?$", BillingView.as_view(), name="billing")]
