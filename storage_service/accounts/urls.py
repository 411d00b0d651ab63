from rest_framework.routers import SimpleRouter

from storage_service.accounts.views import KeyViewSet

router = SimpleRouter()
router.trailing_slash = "/?"  # /v1/keys and /v1/keys/ both route
router.register("keys", KeyViewSet, basename="key")

urlpatterns = router.urls
