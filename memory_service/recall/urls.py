from django.urls import re_path

from memory_service.recall.views import RecallView

urlpatterns = [
    re_path(r"^recall/?$", RecallView.as_view(), name="recall"),
]
