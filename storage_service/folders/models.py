from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.ids import new_folder_id

MAX_NAME_LENGTH = 255
MAX_PATH_LENGTH = 2000


class FolderQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> FolderQuerySet:
        return self.filter(organisation=org)

    def live(self) -> FolderQuerySet:
        return self.filter(deleted_at__isnull=True)

    def in_trash(self) -> FolderQuerySet:
        return self.filter(deleted_at__isnull=False)

    def get_live(self, folder_id: str) -> Folder:
        """Return the live folder ``folder_id`` among these, or raise FOLDER_NOT_FOUND."""
        folder = self.live().filter(pk=folder_id).first()
        if folder is None:
            raise errors.FolderNotFound(folderId=folder_id)
        return folder

    def get_live_or_root(self, folder_id: str | None) -> Folder | None:
        """As ``get_live``, where None (or "") names the root, which has no row."""
        return self.get_live(folder_id) if folder_id else None

    def subtree_of(self, folder: Folder) -> FolderQuerySet:
        """The folder and every folder below it (by materialised path)."""
        return self.filter(organisation_id=folder.organisation_id, path__startswith=folder.path)


class Folder(models.Model):
    """A folder; ``path`` is the materialised chain of ids from the root, ``/fld_a/fld_b/``.

    Trash: deleting a folder stamps ``deleted_at`` on it and its whole subtree (files too), each
    with ``trash_root`` pointing at the folder the caller deleted, so that a restore brings back
    exactly that deletion.
    """

    id = models.CharField(primary_key=True, max_length=32, default=new_folder_id, editable=False)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="folders")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    path = models.CharField(max_length=MAX_PATH_LENGTH, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)
    trash_root = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = FolderQuerySet.as_manager()

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            models.Index(fields=["organisation", "path"], name="folder_org_path"),
            models.Index(fields=["organisation", "parent", "name"], name="folder_org_parent_name"),
            models.Index(fields=["deleted_at"], name="folder_deleted_at"),
        ]
        constraints = [
            # Names are unique among a folder's live children; NULL parents need their own rule.
            models.UniqueConstraint(
                fields=["organisation", "parent", "name"],
                condition=Q(deleted_at__isnull=True, parent__isnull=False),
                name="folder_unique_live_child_name",
            ),
            models.UniqueConstraint(
                fields=["organisation", "name"],
                condition=Q(deleted_at__isnull=True, parent__isnull=True),
                name="folder_unique_live_root_name",
            ),
        ]

    def __str__(self) -> str:
        return self.name
