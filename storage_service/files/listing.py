"""GET /files: its query parameters, each checked on its own, and the page they select."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Subquery, Sum
from django.db.models.functions import Coalesce

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files.models import Category, File, FileQuerySet, FileTally
from storage_service.files.sniffing import MIME_TYPE
from storage_service.folders.models import Folder
from storage_service.pagination import (
    PAGE_PARAMETERS,
    PageRequest,
    page_of,
    page_request,
    paginate,
    pagination,
)

SORT_FIELDS = {
    "name": "name",
    "size": "size",
    "uploadedAt": "uploaded_at",
    "updatedAt": "updated_at",
}
MAX_SEARCH_LENGTH = 255
QUERY_PARAMETERS = (*PAGE_PARAMETERS, "folderId", "type", "search", "sortBy", "sortOrder")


@dataclass(frozen=True)
class FileQuery:
    page: PageRequest
    folder_id: str | None = None
    category: str | None = None
    mime_type: str | None = None
    search: str | None = None
    sort_by: str = "uploadedAt"
    descending: bool = True

    @property
    def only_by_type(self) -> bool:
        """True when no filter but (at most) the type applies: the tallies know the total."""
        return not (self.folder_id or self.search)


def parse_file_query(params: Mapping[str, str]) -> FileQuery:
    """Read GET /files parameters; every bad one is reported under its own name."""
    problems: dict[str, str] = {}
    page = page_request(params, problems)
    category = mime_type = None
    if raw_type := params.get("type", "").strip().lower():
        if raw_type in Category.values:
            category = raw_type
        elif raw_type.endswith("/*") and raw_type[:-2] in Category.values:
            category = raw_type[:-2]
        elif MIME_TYPE.fullmatch(raw_type):
            mime_type = raw_type
        else:
            kinds = ", ".join(Category.values)
            problems["type"] = f"Must be one of {kinds}, or a MIME type such as image/png."
    search = params.get("search")
    if search is not None and len(search) > MAX_SEARCH_LENGTH:
        problems["search"] = f"Must be at most {MAX_SEARCH_LENGTH} characters."
    sort_by = params.get("sortBy", "uploadedAt")
    if sort_by not in SORT_FIELDS:
        problems["sortBy"] = f"Must be one of {', '.join(SORT_FIELDS)}."
    sort_order = params.get("sortOrder", "desc")
    if sort_order not in {"asc", "desc"}:
        problems["sortOrder"] = "Must be asc or desc."
    if problems:
        raise errors.InvalidParameters(**problems)
    return FileQuery(
        page=page,
        folder_id=params.get("folderId") or None,
        category=category,
        mime_type=mime_type,
        search=search or None,
        sort_by=sort_by,
        descending=sort_order == "desc",
    )


def file_queryset(org: Organisation, query: FileQuery) -> FileQuerySet:
    files = File.objects.for_org(org).live().select_related(None)
    if query.folder_id:
        files = files.in_folder(Folder.objects.for_org(org).get_live(query.folder_id))
    if query.category:
        files = files.filter(category=query.category)
    if query.mime_type:
        files = files.filter(content_type=query.mime_type)
    if query.search:
        files = files.filter(name__icontains=query.search)
    sign = "-" if query.descending else ""
    return files.order_by(f"{sign}{SORT_FIELDS[query.sort_by]}", f"{sign}id")


def counted_total(org: Organisation, query: FileQuery) -> Subquery | Coalesce | None:
    """The list's total as the counters keep it, when they know it: no COUNT over millions of
    rows. An expression, so that the page's query reads it alongside its rows."""
    if not query.only_by_type:
        return None
    if not (query.category or query.mime_type):
        return Subquery(Organisation.objects.filter(pk=org.pk).values("file_count"))
    tallies = FileTally.objects.filter(organisation=org)
    if query.category:
        tallies = tallies.filter(category=query.category)
    if query.mime_type:
        tallies = tallies.filter(content_type=query.mime_type)
    summed = tallies.values("organisation").annotate(total=Sum("live_count")).values("total")
    return Coalesce(Subquery(summed), 0)


def list_files(org: Organisation, query: FileQuery) -> tuple[list[File], dict]:
    """Return one page of the organisation's live files and its pagination object."""
    files = file_queryset(org, query)
    total = counted_total(org, query)
    if total is None:
        return paginate(files, query.page)
    # One round trip rather than two: the total rides along with the page's rows, and is read
    # on its own only for a page past the end.
    page = list(page_of(files.annotate(counted_total=total), query.page))
    if page:
        counted = page[0].counted_total
    else:
        counted = Organisation.objects.filter(pk=org.pk).values_list(total, flat=True).get()
    return page, pagination(query.page, counted)
