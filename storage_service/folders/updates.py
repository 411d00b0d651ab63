"""Rename and move folders.

A move is a tree change and locks like a deletion (see ``services``): the organisation's row
first, which every deletion, restore and move takes, so of two concurrent moves the second reads
the tree as the first left it (A into B and B into A are each fine alone; together they would
make a cycle). Then the moved folder and its subtree ``FOR NO KEY UPDATE NOWAIT``: a folder
creation under one of them either waits and then reads the new path, or is already under way
and the move is FOLDER_IN_USE (retry). A rename locks the organisation and the folder alone; a
creation racing it for the name is stopped by the unique constraint.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.folders import tree
from storage_service.folders.models import Folder, FolderQuerySet
from storage_service.folders.services import DUPLICATE_NAME, busy_means_in_use
from storage_service.unchanged import UNCHANGED, Unchanged

INTO_ITSELF = "A folder cannot move into itself or into a folder inside it."


def folder_update(
    *,
    org: Organisation,
    folder_id: str,
    name: str | None = None,
    parent_id: str | Unchanged | None = UNCHANGED,
    now: datetime,
) -> Folder:
    """Rename a live folder and/or move it, with its subtree, under ``parent_id`` (None: root)."""
    with transaction.atomic(), busy_means_in_use(folder_id):
        org = Organisation.objects.select_for_update(no_key=True).get(pk=org.pk)
        live = Folder.objects.for_org(org).live()
        folder = live.select_for_update(no_key=True, nowait=True).get_live(folder_id)
        old_path = folder.path
        if parent_id is not UNCHANGED:
            folder.parent = _destination(live, folder, parent_id)
            folder.path = tree.child_path(folder.parent, folder.pk)
        if name is not None:
            folder.name = name
        if live.filter(parent=folder.parent, name=folder.name).exclude(pk=folder.pk).exists():
            raise errors.InvalidParameters(name=DUPLICATE_NAME)
        if folder.path != old_path:
            _subtree_move(folder, old_path)
        folder.updated_at = now
        try:
            with transaction.atomic():
                folder.save(update_fields=["name", "parent", "updated_at"])
        except IntegrityError as exc:  # a concurrent creation took the name first
            raise errors.InvalidParameters(name=DUPLICATE_NAME) from exc
    return folder


def _destination(live: FolderQuerySet, folder: Folder, parent_id: str | None) -> Folder | None:
    """The live folder ``parent_id`` (None: the root), if ``folder`` may move into it."""
    if parent_id is None:
        return None
    # Unlocked: only a tree change could take it away or move it, and those all wait for the
    # organisation's lock, which we hold.
    parent = live.get_live(parent_id)
    if parent.path.startswith(folder.path):
        raise errors.InvalidParameters(parentFolderId=INTO_ITSELF)
    return parent


def _subtree_move(folder: Folder, old_path: str) -> None:
    """Give ``folder``'s subtree, trashed rows included, paths under its new ``path``."""
    subtree = Folder.objects.filter(organisation_id=folder.organisation_id)
    subtree = subtree.filter(path__startswith=old_path).select_for_update(no_key=True, nowait=True)
    paths = list(subtree.values_list("path", flat=True))
    deepest = max(len(path) for path in paths) - len(old_path) + len(folder.path)
    if deepest > tree.MAX_PATH_LENGTH:
        raise errors.InvalidParameters(
            parentFolderId=f"Folders nest at most {tree.MAX_DEPTH} levels deep."
        )
    tree.paths_rewrite(org_id=folder.organisation_id, old_prefix=old_path, new_prefix=folder.path)
