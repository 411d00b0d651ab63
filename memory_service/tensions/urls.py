from django.urls import re_path

from memory_service.tensions.views import TensionViewSet

urlpatterns = [
    re_path(
        r"^tensions/?$",
        TensionViewSet.as_view({"get": "list", "post": "create"}),
        name="tension-list",
    ),
    # Resolving is a POST on the tension itself, as the contract has it.
    re_path(
        r"^tensions/(?P<pk>[^/.]+)/?$",
        TensionViewSet.as_view({"post": "resolve"}),
        name="tension-resolve",
    ),
]
