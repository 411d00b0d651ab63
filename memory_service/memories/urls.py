from django.urls import re_path
from rest_framework.routers import SimpleRouter

from memory_service.memories.views import MemoryViewSet, TurnView

router = SimpleRouter()
router.trailing_slash = "/?"
router.register("memories", MemoryViewSet, basename="memory")

urlpatterns = [re_path(r"^turns/?$", TurnView.as_view(), name="turns"), *router.urls]
