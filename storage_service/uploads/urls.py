from django.urls import re_path

from storage_service.uploads import views

# Included before the files routes, which would otherwise take these paths for file ids.
urlpatterns = [
    re_path(
        r"^files/multipart-upload-start/?$",
        views.UploadStartView.as_view(),
        name="multipart-upload-start",
    ),
    re_path(
        r"^files/multipart-upload-complete/?$",
        views.UploadCompleteView.as_view(),
        name="multipart-upload-complete",
    ),
    re_path(
        r"^files/multipart-upload/(?P<upload_id>[^/]+)/parts/(?P<part_number>[^/]+)/?$",
        views.UploadPartView.as_view(),
        name="multipart-upload-part",
    ),
    re_path(
        r"^files/multipart-upload/(?P<upload_id>[^/]+)/?$",
        views.UploadView.as_view(),
        name="multipart-upload",
    ),
]
