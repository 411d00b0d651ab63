from __future__ import annotations

from datetime import timedelta

import pytest

from storage_service import clock
from tests.storage.factories import FileFactory, FolderFactory

pytestmark = pytest.mark.django_db


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [f["name"] for f in response.json()["data"]["files"]]


@pytest.fixture
def files(admin_key):
    org = admin_key.organisation
    start = clock.now() - timedelta(hours=1)
    specs = [
        ("holiday.png", "image/png", 300),
        ("report.pdf", "application/pdf", 100),
        ("clip.mp4", "video/mp4", 900),
        ("notes.txt", "text/plain", 50),
        ("Holiday plan.txt", "text/plain", 10),
    ]
    return [
        FileFactory(
            organisation=org,
            name=name,
            content_type=mime,
            size=size,
            uploaded_at=start + timedelta(minutes=i),
            updated_at=start + timedelta(minutes=10 - i),
        )
        for i, (name, mime, size) in enumerate(specs)
    ]


def test_default_is_newest_first_with_the_full_pagination_object(api, files):
    response = api.get("/v1/files")
    assert names(response) == [f.name for f in reversed(files)]
    assert response.json()["data"]["pagination"] == {
        "page": 1,
        "limit": 20,
        "total": 5,
        "totalPages": 1,
        "hasNext": False,
        "hasPrev": False,
    }


def test_pages_split_the_list(api, files):
    response = api.get("/v1/files", {"limit": 2, "page": 3})
    assert names(response) == [files[0].name]
    pagination = response.json()["data"]["pagination"]
    assert (pagination["totalPages"], pagination["hasNext"], pagination["hasPrev"]) == (
        3,
        False,
        True,
    )


@pytest.mark.parametrize(
    ("sort_by", "order", "expected"),
    [
        ("name", "asc", ["clip.mp4", "holiday.png", "Holiday plan.txt", "notes.txt", "report.pdf"]),
        (
            "size",
            "desc",
            ["clip.mp4", "holiday.png", "report.pdf", "notes.txt", "Holiday plan.txt"],
        ),
        (
            "updatedAt",
            "asc",
            ["Holiday plan.txt", "notes.txt", "clip.mp4", "report.pdf", "holiday.png"],
        ),
        (
            "uploadedAt",
            "asc",
            ["holiday.png", "report.pdf", "clip.mp4", "notes.txt", "Holiday plan.txt"],
        ),
    ],
)
def test_sorting(api, files, sort_by, order, expected):
    got = names(api.get("/v1/files", {"sortBy": sort_by, "sortOrder": order}))
    if sort_by == "name":
        assert sorted(got, key=str.lower) == sorted(expected, key=str.lower)
        assert got == sorted(got)  # the database's byte order
    else:
        assert got == expected


def test_search_matches_a_substring_of_the_name_ignoring_case(api, files):
    assert sorted(names(api.get("/v1/files", {"search": "holiday"}))) == [
        "Holiday plan.txt",
        "holiday.png",
    ]
    assert api.get("/v1/files", {"search": "holiday"}).json()["data"]["pagination"]["total"] == 2


@pytest.mark.parametrize(
    ("type_", "expected"),
    [
        ("image", ["holiday.png"]),
        ("video", ["clip.mp4"]),
        ("document", ["Holiday plan.txt", "notes.txt", "report.pdf"]),
        ("other", []),
        ("application/pdf", ["report.pdf"]),
        ("image/*", ["holiday.png"]),
    ],
)
def test_type_filters_by_category_or_mime_type(api, files, type_, expected):
    assert sorted(names(api.get("/v1/files", {"type": type_}))) == expected


def test_folder_filter_lists_the_files_directly_in_it(api, admin_key):
    org = admin_key.organisation
    folder = FolderFactory(organisation=org)
    inside = FileFactory(organisation=org, folder=folder, name="in.txt")
    FileFactory(organisation=org, name="out.txt")
    assert names(api.get("/v1/files", {"folderId": folder.pk})) == [inside.name]


def test_unknown_folder_is_folder_not_found(api):
    response = api.get("/v1/files", {"folderId": "fld_missing"})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "FOLDER_NOT_FOUND"


def test_another_organisations_folder_is_folder_not_found(api):
    foreign = FolderFactory()
    assert api.get("/v1/files", {"folderId": foreign.pk}).status_code == 404


def test_every_bad_parameter_is_reported_under_its_own_name(api):
    response = api.get(
        "/v1/files",
        {
            "page": 0,
            "limit": 101,
            "type": "spreadsheet!",
            "sortBy": "colour",
            "sortOrder": "up",
            "search": "s" * 300,
        },
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "INVALID_PARAMETERS"
    assert set(error["details"]) == {"page", "limit", "type", "sortBy", "sortOrder", "search"}


def test_only_the_callers_live_files_are_listed(api, admin_key):
    FileFactory(name="foreign.txt")
    FileFactory(organisation=admin_key.organisation, name="trashed.txt", deleted_at=clock.now())
    mine = FileFactory(organisation=admin_key.organisation, name="mine.txt")
    assert names(api.get("/v1/files")) == [mine.name]
    assert api.get("/v1/files").json()["data"]["pagination"]["total"] == 1


def test_type_totals_stay_exact_through_uploads_deletes_and_trash(api, admin_key):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from storage_service.files.models import File

    def total(type_: str) -> int:
        return api.get("/v1/files", {"type": type_}).json()["data"]["pagination"]["total"]

    ids = [
        api.post(
            "/v1/files/upload",
            {"file": SimpleUploadedFile(f"{n}.txt", b"text")},
            format="multipart",
        ).json()["data"]["file"]["id"]
        for n in range(3)
    ]
    assert (total("document"), total("text/plain"), total("image")) == (3, 3, 0)
    api.delete(f"/v1/files/{ids[0]}")
    File.objects.filter(pk=ids[1]).update(deleted_at=clock.now())  # as a folder's trash does
    assert (total("document"), total("text/plain")) == (1, 1)
    File.objects.filter(pk=ids[1]).update(deleted_at=None)  # as a restore does
    File.objects.filter(pk=ids[2]).update(content_type="image/png", category="image")
    assert (total("document"), total("image"), total("image/png")) == (1, 1, 1)
