from django.urls import re_path
from rest_framework.routers import SimpleRouter

from storage_service.files.downloads import download
from storage_service.files.views import FileViewSet

router = SimpleRouter()
router.trailing_slash = "/?"
router.register("files", FileViewSet, basename="file")

urlpatterns = [
    re_path(r"^downloads/(?P<token>[^/]+)/?$", download, name="file-download"),
    *router.urls,
]
