"""The rules the HTTP tests reach only through a request, held on their own: the live-folder
lookup, the upload size limit, and how a query string is read."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from storage_service import errors
from storage_service.files import quota
from storage_service.files.serializers import FileListQuerySerializer
from storage_service.folders.models import Folder
from storage_service.folders.serializers import FolderDeleteQuerySerializer
from storage_service.folders.services import folder_delete
from storage_service.pagination import PageQuerySerializer, PageRequest
from tests.storage.factories import FileFactory, FolderFactory, OrganisationFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 12, 2, 12, tzinfo=UTC)


def read(serializer_class, params: dict[str, str]) -> dict:
    serializer = serializer_class(data=params)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def problems(serializer_class, params: dict[str, str]) -> dict[str, list[str]]:
    serializer = serializer_class(data=params)
    assert not serializer.is_valid()
    return {
        name: [str(reason) for reason in reasons] for name, reasons in serializer.errors.items()
    }


# The live-folder lookup


def test_get_live_finds_a_live_folder_of_the_organisation():
    folder = FolderFactory()
    assert Folder.objects.for_org(folder.organisation).get_live(folder.pk) == folder


@pytest.mark.parametrize("whose", ["trashed", "another organisation's", "unknown"])
def test_get_live_is_folder_not_found_for_anything_else(whose):
    org = OrganisationFactory()
    folder_id = {
        "trashed": lambda: FolderFactory(organisation=org, deleted_at=NOW).pk,
        "another organisation's": lambda: FolderFactory().pk,
        "unknown": lambda: "fld_unknown",
    }[whose]()
    with pytest.raises(errors.FolderNotFound) as refused:
        Folder.objects.for_org(org).get_live(folder_id)
    assert refused.value.details == {"folderId": folder_id}


@pytest.mark.parametrize("root", [None, ""])
def test_get_live_or_root_reads_no_id_as_the_root(root):
    assert Folder.objects.for_org(OrganisationFactory()).get_live_or_root(root) is None


# The upload size limit: one rule, checked on the whole file and while the bytes arrive


def test_a_file_of_exactly_the_plans_largest_upload_is_allowed(settings):
    org = OrganisationFactory()
    quota.check_upload_size(org=org, size=org.plan_limits["maxUploadSize"])


def test_a_whole_file_over_the_limit_names_its_size_and_the_limit():
    org = OrganisationFactory()
    limit = org.plan_limits["maxUploadSize"]
    with pytest.raises(errors.FileTooLarge) as refused:
        quota.check_upload_size(org=org, size=limit + 1)
    assert refused.value.details == {"size": limit + 1, "maxSize": limit}


def test_bytes_still_arriving_over_the_limit_name_only_the_limit():
    org = OrganisationFactory()
    limit = org.plan_limits["maxUploadSize"]
    with pytest.raises(errors.FileTooLarge) as refused:
        quota.check_upload_size(org=org, size=limit + 1, whole=False)
    assert refused.value.details == {"maxSize": limit}


# Query strings


def test_a_page_query_defaults_to_the_first_page_of_twenty():
    assert read(PageQuerySerializer, {}) == {"page": PageRequest(page=1, limit=20)}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Must be a whole number."),
        ("two", "Must be a whole number."),
        ("5_0", "Must be a whole number."),  # int() would read 50
        ("\u0665", "Must be a whole number."),  # ARABIC-INDIC DIGIT FIVE; int() would read 5
        (" 5", "Must be a whole number."),
        ("0", "Must be 1 or greater."),
        ("-3", "Must be 1 or greater."),
    ],
)
def test_a_page_is_ascii_digits_of_at_least_one(text, reason):
    assert problems(PageQuerySerializer, {"page": text}) == {"page": [reason]}


def test_a_limit_past_the_largest_page_names_the_range():
    found = problems(PageQuerySerializer, {"limit": "101", "page": "x"})
    assert found == {"limit": ["Must be between 1 and 100."], "page": ["Must be a whole number."]}


@pytest.mark.parametrize(
    ("type_", "category", "mime_type"),
    [
        ("image", "image", None),
        (" Video/* ", "video", None),
        ("image/png", None, "image/png"),
        ("", None, None),
    ],
)
def test_a_files_type_filter_is_a_category_or_one_mime_type(type_, category, mime_type):
    query = read(FileListQuerySerializer, {"type": type_})
    assert (query["category"], query["mime_type"]) == (category, mime_type)


@pytest.mark.parametrize("type_", ["text/*", "pictures", "image/png; q=1", "a" * 128 + "/b"])
def test_anything_else_as_a_files_type_filter_is_refused(type_):
    assert list(problems(FileListQuerySerializer, {"type": type_})) == ["type"]


def test_a_files_query_reads_as_the_listing_wants_it():
    query = read(
        FileListQuerySerializer,
        {"folderId": "", "search": "", "sortBy": "size", "sortOrder": "asc", "limit": "5"},
    )
    assert query == {
        "page": PageRequest(page=1, limit=5),
        "folder_id": None,
        "search": None,
        "sort_by": "size",
        "descending": False,
        "category": None,
        "mime_type": None,
    }


def test_delete_flags_default_to_a_recursive_deletion_that_happens():
    assert read(FolderDeleteQuerySerializer, {}) == {
        "force": False,
        "recursive": True,
        "dry_run": False,
    }


@pytest.mark.parametrize(("text", "value"), [("TRUE", True), (" 0 ", False), ("1", True)])
def test_a_flag_is_true_false_one_or_zero_in_any_case(text, value):
    assert read(FolderDeleteQuerySerializer, {"force": text})["force"] is value


def test_a_flag_of_another_word_is_refused():
    found = problems(FolderDeleteQuerySerializer, {"dryRun": "yes"})
    assert found == {"dryRun": ["Must be true, false, 1 or 0."]}


# Deleting a folder, as the service does it


def test_a_dry_run_counts_what_a_deletion_would_take_and_takes_nothing():
    top = FolderFactory()
    FileFactory(folder=FolderFactory(parent=top), data=b"12345")
    outcome = folder_delete(
        org=top.organisation, folder_id=top.pk, force=True, dry_run=True, now=NOW
    )
    assert (outcome.deleted_files, outcome.deleted_subfolders, outcome.freed_space) == (1, 1, 5)
    assert not Folder.objects.in_trash().exists()
