from django.urls import re_path

from memory_service.selfmodel.views import OutcomeView, SelfModelView

urlpatterns = [
    re_path(r"^self-model/?$", SelfModelView.as_view(), name="self-model"),
    re_path(r"^self-model/outcome/?$", OutcomeView.as_view(), name="self-model-outcome"),
]
