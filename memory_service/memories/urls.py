from django.urls import re_path
from rest_framework.routers import SimpleRouter

from memory_service.memories.views import MemoryViewSet, RecallView, TurnView

router = SimpleRouter()
router.trailing_slash = "/?"
router.register("memories", MemoryViewSet, basename="memory")

urlpatterns = [
    re_path(r"^turns/?$", TurnView.as_view(), name="turns"),
    re_path(r"^recall/?$", RecallView.as_view(), name="recall"),
    *router.urls,
]
