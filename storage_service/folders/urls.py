from rest_framework.routers import SimpleRouter

from storage_service.folders.views import FolderViewSet

# SimpleRouter puts the list-level actions (folders/bulk) before folders/{folderId}.
router = SimpleRouter()
router.trailing_slash = "/?"  # /v1/folders and /v1/folders/ both route
router.register("folders", FolderViewSet, basename="folder")

urlpatterns = router.urls
