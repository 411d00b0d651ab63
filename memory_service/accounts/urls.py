from rest_framework.routers import SimpleRouter

from memory_service.accounts.views import KeyViewSet

router = SimpleRouter()
router.trailing_slash = "/?"  # /keys and /keys/ both route
router.register("keys", KeyViewSet, basename="key")

urlpatterns = router.urls
