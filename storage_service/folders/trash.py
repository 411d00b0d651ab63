"""The trash: list and restore what was deleted less than 30 days ago, and purge what is older."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Count, F, Sum
from django.db.models.functions import Length

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.blobs import blob_store
from storage_service.files.models import File
from storage_service.folders import tree
from storage_service.folders.models import Folder
from storage_service.folders.services import busy_means_in_use, subtree_destroy, subtree_lock
from storage_service.pagination import PageRequest, paginate

RESTORE_WINDOW = timedelta(days=30)
NOT_RESTORABLE = "No folder in the trash with this id; a deleted folder is restorable for 30 days."
PURGE_BATCH = 500


@dataclass(frozen=True)
class TrashedFolder:
    """A folder deleted to the trash and what its restore would bring back with it."""

    folder: Folder
    files: int
    subfolders: int
    size: int

    @property
    def purge_at(self) -> datetime:
        deleted_at = self.folder.deleted_at
        assert deleted_at is not None  # a folder in the trash
        return deleted_at + RESTORE_WINDOW


def trash_list(
    *, org: Organisation, page_request: PageRequest, now: datetime
) -> tuple[list[TrashedFolder], dict]:
    """One page of ``org``'s restorable deletions, newest first, and its pagination object.

    Each item is a folder the caller deleted (not one that went with it); its counts come from
    two grouped queries over the page, whatever its length.
    """
    deleted = Folder.objects.for_org(org).filter(
        trash_root=F("pk"), deleted_at__gt=now - RESTORE_WINDOW
    )
    page, pagination = paginate(deleted.order_by("-deleted_at", "-pk"), page_request)
    ids = [folder.pk for folder in page]
    files = File.objects.filter(organisation=org, trash_root__in=ids).values("trash_root")
    files = files.annotate(count=Count("pk"), size=Sum("size")).order_by()
    held = {row["trash_root"]: (row["count"], row["size"]) for row in files}
    folders = Folder.objects.filter(organisation=org, trash_root__in=ids).values("trash_root")
    folders = folders.annotate(count=Count("pk")).order_by()
    subfolders = {row["trash_root"]: row["count"] - 1 for row in folders}  # less the folder
    items = [
        TrashedFolder(
            folder,
            files=held.get(folder.pk, (0, 0))[0],
            subfolders=subfolders.get(folder.pk, 0),
            size=held.get(folder.pk, (0, 0))[1],
        )
        for folder in page
    ]
    return items, pagination


@dataclass(frozen=True)
class FolderRestore:
    folder: Folder
    restored_files: int
    restored_subfolders: int


def folder_restore(*, org: Organisation, folder_id: str, now: datetime) -> FolderRestore:
    """Bring back a folder deleted to the trash less than 30 days ago, with what went with it.

    Its files count against the quota again (STORAGE_QUOTA_EXCEEDED when they no longer fit).
    If its parent is in the trash it comes back at the root; if a live sibling has taken its
    name meanwhile it is renamed ``name (restored)``, ``name (restored 2)``, ...
    """
    with transaction.atomic(), busy_means_in_use(folder_id):
        org = Organisation.objects.select_for_update(no_key=True).get(pk=org.pk)
        folder = (
            Folder.objects.for_org(org)
            .select_for_update(nowait=True)
            .filter(pk=folder_id, trash_root=folder_id, deleted_at__gt=now - RESTORE_WINDOW)
            .first()
        )
        if folder is None:
            raise errors.FolderNotFound(NOT_RESTORABLE, folderId=folder_id)
        folders = Folder.objects.filter(organisation=org, trash_root=folder)
        files = File.objects.filter(organisation=org, trash_root=folder)
        rows = list(files.select_for_update(nowait=True).values_list("category", "size"))
        if rows:
            quota.quota_reserve(org=org, stored=quota.stored_of(rows))
        if folder.parent_id is not None:
            # Locked, so that no creation in the parent races the names read below.
            parents = Folder.objects.select_for_update(no_key=True, nowait=True)
            parent = parents.get(pk=folder.parent_id)
            if parent.deleted_at is not None:
                new_path = tree.child_path(None, folder.pk)
                tree.paths_rewrite(org_id=org.pk, old_prefix=folder.path, new_prefix=new_path)
                parent = None
            folder.parent = parent
        siblings = Folder.objects.for_org(org).filter(parent=folder.parent).exclude(pk=folder.pk)
        taken = tree.names_taken(siblings, folder.name)
        name = tree.first_free_name(folder.name, taken, tree.restored_suffixes())
        # Renamed and moved while still in the trash, so the live-name constraint never trips.
        Folder.objects.filter(pk=folder.pk).update(name=name, parent=folder.parent, updated_at=now)
        subfolders = folders.exclude(pk=folder.pk).count()
        folders.update(deleted_at=None, trash_root=None)
        files.update(deleted_at=None, trash_root=None)
        folder.refresh_from_db()
    return FolderRestore(folder, restored_files=len(rows), restored_subfolders=subfolders)


@dataclass
class TrashPurge:
    folders: int = 0
    files: int = 0
    freed_space: int = 0
    busy: int = 0  # folders skipped because something held a lock on them; the next run takes them


def trash_purge(*, now: datetime, older_than: timedelta = RESTORE_WINDOW) -> TrashPurge:
    """Delete for good what went to the trash ``older_than`` or longer before ``now``.

    Each expired folder goes with its whole subtree, in its own transaction; then every expired
    file left (one trashed on its own). Bytes are deleted after each commit.
    """
    cutoff = now - older_than
    purged = TrashPurge()
    expired_folders = Folder.objects.in_trash().filter(deleted_at__lte=cutoff)
    # Shallowest first, so that most subfolders have gone with their ancestor by their turn.
    shallowest_first = expired_folders.order_by(Length("path"), "pk")
    for org_id, folder_id in shallowest_first.values_list("organisation", "pk"):
        try:
            with transaction.atomic(), busy_means_in_use(folder_id):
                Organisation.objects.select_for_update(no_key=True).filter(pk=org_id).first()
                locked = expired_folders.select_for_update(nowait=True)
                folder = locked.filter(pk=folder_id).first()
                if folder is None:  # gone with an ancestor, or restored meanwhile
                    continue
                subtree_lock(folder)
                destroyed = subtree_destroy(folder)
        except errors.FolderInUse:
            purged.busy += 1
            continue
        purged.folders += destroyed.folders
        purged.files += destroyed.files
        purged.freed_space += destroyed.size
    expired_files = File.objects.filter(deleted_at__lte=cutoff)
    while batch := list(expired_files.values_list("pk", flat=True)[:PURGE_BATCH]):
        with transaction.atomic():
            claimed = expired_files.select_for_update().filter(pk__in=batch)
            rows = list(claimed.values_list("pk", "storage_name", "size"))
            File.objects.filter(pk__in=[pk for pk, _, _ in rows]).delete()
            names = [name for _, name, _ in rows]
            transaction.on_commit(functools.partial(blob_store().delete_many, names))
        purged.files += len(rows)
        purged.freed_space += sum(size for _, _, size in rows)
    return purged
