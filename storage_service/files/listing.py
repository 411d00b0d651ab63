"""GET /files: the query its parameters make (``FileListQuerySerializer``), and its page."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Subquery, Sum
from django.db.models.functions import Coalesce

from storage_service.accounts.models import Organisation
from storage_service.files.models import File, FileQuerySet, FileTally
from storage_service.folders.models import Folder
from storage_service.pagination import PAGE_PARAMETERS, PageRequest, page_of, paginate, pagination

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
