"""Writes on folders: create and delete (to the trash or for good); ``trash`` restores and purges,
``updates`` renames and moves.

Deletions, restores, purges and moves lock the organisation row first (``FOR NO KEY UPDATE``,
the lock a quota update takes anyway, so inserts that merely reference the organisation never
wait on it).
That serialises an organisation's tree changes. The subtree's folder rows are then locked
``FOR UPDATE NOWAIT``, so an upload or a folder creation into that subtree waits for the outcome
and then sees it, and one already under way makes the deletion FOLDER_IN_USE rather than wait
(see ``busy_means_in_use``). SQLite ignores row locks: its write transactions run one at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime

from django.db import IntegrityError, OperationalError, transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.blobs import blob_store
from storage_service.files.models import File
from storage_service.folders import tree
from storage_service.folders.models import Folder
from storage_service.uploads.models import MultipartUpload

DUPLICATE_NAME = "A folder with this name already exists here."
MAX_UPLOAD_IDS_SHOWN = 20
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a NOWAIT lock that is taken
BUSY = (
    "Another operation on this folder or its contents (an upload, a file deletion, a new "
    "folder) is in progress; retry in a moment."
)


def folder_create(*, org: Organisation, name: str, parent_id: str | None, now: datetime) -> Folder:
    """Create a folder named ``name`` under ``parent_id`` (the root when None)."""
    with transaction.atomic():
        parent = None
        if parent_id is None:
            # The root has no row to lock; the organisation's stands in for it, as in deletions.
            Organisation.objects.select_for_update(no_key=True).filter(pk=org.pk).first()
        else:
            # Locked, so a concurrent deletion of the parent either waits for us or is seen.
            parents = Folder.objects.for_org(org).select_for_update(no_key=True)
            parent = parents.get_live(parent_id)
        folder = Folder(organisation=org, parent=parent, name=name, created_at=now, updated_at=now)
        folder.path = tree.child_path(parent, folder.pk)
        if len(folder.path) > tree.MAX_PATH_LENGTH:
            raise errors.InvalidParameters(
                parentFolderId=f"Folders nest at most {tree.MAX_DEPTH} levels deep."
            )
        if Folder.objects.for_org(org).live().filter(parent=parent, name=name).exists():
            raise errors.InvalidParameters(name=DUPLICATE_NAME)
        try:
            with transaction.atomic():
                folder.save(force_insert=True)
        except IntegrityError as exc:  # a concurrent create took the name first
            raise errors.InvalidParameters(name=DUPLICATE_NAME) from exc
    return folder


@dataclass(frozen=True)
class FolderDeletion:
    folder_id: str
    deleted_files: int
    deleted_subfolders: int
    freed_space: int
    permanent: bool


def folder_delete(
    *,
    org: Organisation,
    folder_id: str,
    force: bool = False,
    recursive: bool = True,
    dry_run: bool = False,
    now: datetime,
) -> FolderDeletion:
    """Delete a folder: to the trash or for good, as the organisation's ``folder_deletion`` says.

    ``recursive`` takes the whole subtree; without it the folder's contents move up to its parent.
    ``dry_run`` does all of it inside a transaction that is rolled back, so it answers exactly
    what the deletion would (counts and errors) and changes nothing, bytes included.
    """
    with transaction.atomic(), busy_means_in_use(folder_id):
        outcome = _delete(org=org, folder_id=folder_id, force=force, recursive=recursive, now=now)
        if dry_run:
            transaction.set_rollback(True)
    return outcome


@dataclass
class BulkDeletion:
    deleted: list[FolderDeletion] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)

    @property
    def freed_space(self) -> int:
        return sum(outcome.freed_space for outcome in self.deleted)


def folders_delete_bulk(
    *,
    org: Organisation,
    folder_ids: list[str],
    force: bool = False,
    recursive: bool = True,
    dry_run: bool = False,
    now: datetime,
) -> BulkDeletion:
    """Delete each folder on its own, in order; each failure is reported with its code and reason.

    A folder inside one deleted earlier in the list is gone by its turn: FOLDER_NOT_FOUND.
    """
    outcome = BulkDeletion()
    # A dry run wraps them all, so that its counts see the earlier ids' effects too.
    with transaction.atomic() if dry_run else nullcontext():
        for folder_id in dict.fromkeys(folder_ids):
            try:
                deletion = folder_delete(
                    org=org, folder_id=folder_id, force=force, recursive=recursive, now=now
                )
            except errors.ApiError as error:
                outcome.failed.append(
                    {"folderId": folder_id, "code": error.code, "reason": error.message}
                )
            else:
                outcome.deleted.append(deletion)
        if dry_run:
            transaction.set_rollback(True)
    return outcome


def _delete(
    *, org: Organisation, folder_id: str, force: bool, recursive: bool, now: datetime
) -> FolderDeletion:
    org = Organisation.objects.select_for_update(no_key=True).get(pk=org.pk)
    folder = Folder.objects.for_org(org).select_for_update(nowait=True).filter(pk=folder_id).first()
    if folder is None or folder.deleted_at is not None:  # read under the lock
        raise errors.FolderNotFound(folderId=folder_id)
    contents = subtree_lock(folder)
    # Only now, with the subtree locked, is the list of open uploads final.
    uploads = MultipartUpload.objects.unfinished(now).filter(
        organisation=org, folder__path__startswith=folder.path
    )
    upload_ids = list(uploads.order_by("created_at", "id").values_list("pk", flat=True))
    if upload_ids:
        raise errors.FolderInUse(
            folderId=folder.pk,
            reason="A multipart upload into this folder or a folder inside it is still in "
            "progress; complete or abort it first.",
            uploadIds=upload_ids[:MAX_UPLOAD_IDS_SHOWN],
        )
    permanent = org.folder_deletion == Organisation.FolderDeletion.PERMANENT
    if not recursive:
        _delete_alone(folder, permanent=permanent, now=now)
        return FolderDeletion(folder.pk, 0, 0, 0, permanent)
    if contents.files and not force:
        raise errors.FolderNotEmpty(
            folderId=folder.pk, fileCount=contents.files, subfolderCount=contents.subfolders
        )
    if permanent:
        subtree_destroy(folder)
    else:
        Folder.objects.subtree_of(folder).live().update(deleted_at=now, trash_root=folder)
        File.objects.in_subtree_of(folder).live().update(deleted_at=now, trash_root=folder)
        if contents.files:
            quota.quota_release(org_id=org.pk, stored=contents.stored)
    return FolderDeletion(folder.pk, contents.files, contents.subfolders, contents.size, permanent)


@dataclass(frozen=True)
class Contents:
    """What is live below a folder: subfolders (itself excluded), files and their bytes."""

    subfolders: int
    files: int
    size: int
    stored: quota.Stored


def subtree_lock(folder: Folder) -> Contents:
    """Lock every folder and file row of ``folder``'s subtree, live or trashed, without waiting.

    Called under the organisation's lock, inside ``busy_means_in_use``. Once it returns, nothing
    can be created, uploaded or moved into the subtree until the transaction ends.
    """
    folders = Folder.objects.subtree_of(folder).select_for_update(nowait=True)
    folder_rows = folders.values_list("pk", "deleted_at")
    files = File.objects.in_subtree_of(folder).select_for_update(nowait=True, of=("self",))
    rows = files.values_list("category", "size", "deleted_at")
    live = [(category, size) for category, size, deleted_at in rows if not deleted_at]
    return Contents(
        subfolders=sum(1 for pk, deleted_at in folder_rows if not deleted_at and pk != folder.pk),
        files=len(live),
        size=sum(size for _, size in live),
        stored=quota.stored_of(live),
    )


@contextmanager
def busy_means_in_use(folder_id: str) -> Iterator[None]:
    """Turn a NOWAIT row lock that someone else holds into FOLDER_IN_USE.

    Tree changes take the organisation's lock first and every later row lock with NOWAIT, so
    they never wait while holding a lock: they cannot deadlock with an upload, a file deletion
    or a folder creation that takes its locks in another order. That operation is in progress.
    """
    try:
        yield
    except OperationalError as exc:
        if getattr(exc.__cause__, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        raise errors.FolderInUse(folderId=folder_id, reason=BUSY, uploadIds=[]) from exc


def _delete_alone(folder: Folder, *, permanent: bool, now: datetime) -> None:
    """Delete only ``folder``: its files and subfolders, live or trashed, move up to its parent.

    A moved subfolder whose name a sibling at the parent holds is renamed ``name (2)``, ...
    """
    # Trashed first, also when it goes for good: its name is then free for a child of that name.
    Folder.objects.filter(pk=folder.pk).update(deleted_at=now, trash_root=folder)
    above = folder.parent_id
    if above is not None:  # a creation in the parent would race the names read next
        Folder.objects.select_for_update(no_key=True, nowait=True).filter(pk=above).first()
    siblings = Folder.objects.filter(organisation_id=folder.organisation_id, parent_id=above)
    children = Folder.objects.filter(parent=folder)
    moving = dict(children.live().values_list("pk", "name"))
    taken_above = set(siblings.live().values_list("name", flat=True))
    taken = taken_above | set(moving.values())
    for child_id, name in moving.items():
        if name in taken_above:
            new_name = tree.first_free_name(name, taken, tree.numbered_suffixes())
            taken.add(new_name)
            children.filter(pk=child_id).update(name=new_name, parent_id=above, updated_at=now)
    children.update(parent_id=above, updated_at=now)
    tree.paths_rewrite(
        org_id=folder.organisation_id,
        old_prefix=folder.path,
        new_prefix=tree.parent_path(folder),
        exclude_id=folder.pk,
    )
    File.objects.filter(folder=folder).update(folder_id=above, updated_at=now)
    if permanent:
        Folder.objects.filter(pk=folder.pk).delete()


@dataclass(frozen=True)
class Destroyed:
    folders: int
    files: int
    size: int


def subtree_destroy(folder: Folder) -> Destroyed:
    """Delete ``folder``'s subtree for good, live and trashed rows; the bytes go after commit.

    The caller holds the organisation's lock and ``subtree_lock``. Live files give their bytes
    back to the quota (trashed ones already did).
    """
    files = File.objects.in_subtree_of(folder)
    rows = list(files.values_list("storage_name", "size", "deleted_at", "category"))
    files.delete()
    _, deleted = Folder.objects.subtree_of(folder).delete()
    live = quota.stored_of(
        (category, size) for _, size, deleted_at, category in rows if not deleted_at
    )
    if live:
        quota.quota_release(org_id=folder.organisation_id, stored=live)
    names = [name for name, _, _, _ in rows]
    if names:
        transaction.on_commit(lambda: blob_store().delete_many(names))
    return Destroyed(
        folders=deleted.get(Folder._meta.label, 0),
        files=len(rows),
        size=sum(size for _, size, _, _ in rows),
    )
