from django.urls import re_path

from memory_service.context.views import ContextView

urlpatterns = [re_path(r"^context/?$", ContextView.as_view(), name="context")]
