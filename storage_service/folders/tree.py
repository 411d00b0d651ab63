"""Helpers on the folder tree: materialised paths and free names among siblings."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from django.db.models import Value
from django.db.models.functions import Concat, Substr

from storage_service.folders.models import MAX_NAME_LENGTH, MAX_PATH_LENGTH, Folder, FolderQuerySet

ROOT_PATH = "/"
# Each level adds an id and a slash to the path, so the column's width bounds the depth.
MAX_DEPTH = (MAX_PATH_LENGTH - len(ROOT_PATH)) // (len("fld_") + 20 + 1)


def child_path(parent: Folder | None, folder_id: str) -> str:
    return (parent.path if parent is not None else ROOT_PATH) + folder_id + "/"


def parent_path(folder: Folder) -> str:
    """The path of ``folder``'s parent (``/`` for the root), read off its own path."""
    return folder.path[: -len(folder.pk) - 1]


def paths_rewrite(*, org_id: str, old_prefix: str, new_prefix: str, exclude_id: str = "") -> None:
    """Replace ``old_prefix`` by ``new_prefix`` in every path under it, trashed ones too."""
    if old_prefix == new_prefix:
        return
    Folder.objects.filter(organisation_id=org_id, path__startswith=old_prefix).exclude(
        pk=exclude_id
    ).update(path=Concat(Value(new_prefix), Substr("path", len(old_prefix) + 1)))


def names_taken(siblings: FolderQuerySet, name: str) -> set[str]:
    """The live names among ``siblings`` that ``name`` or one of its variants could clash with."""
    stem = name[: MAX_NAME_LENGTH - 32]  # every variant keeps at least this much of the name
    return set(siblings.live().filter(name__startswith=stem).values_list("name", flat=True))


def first_free_name(name: str, taken: Iterable[str], suffixes: Iterator[str]) -> str:
    """``name`` if it is free, else the first free ``name<suffix>`` (cut to fit 255 characters)."""
    taken = set(taken)
    candidate = name
    while candidate in taken:
        suffix = next(suffixes)
        candidate = name[: MAX_NAME_LENGTH - len(suffix)] + suffix
    return candidate


def numbered_suffixes() -> Iterator[str]:
    """`` (2)``, `` (3)``, ...: a folder moved up beside one of the same name."""
    n = 2
    while True:
        yield f" ({n})"
        n += 1


def restored_suffixes() -> Iterator[str]:
    """`` (restored)``, `` (restored 2)``, ...: a restored folder whose name was taken meanwhile."""
    yield " (restored)"
    n = 2
    while True:
        yield f" (restored {n})"
        n += 1
