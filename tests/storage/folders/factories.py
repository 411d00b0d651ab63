"""Folders and files for the folder tests: files have real bytes in storage and count as quota."""

from __future__ import annotations

import io

import factory
from django.db.models import F

from storage_service.accounts.models import Organisation
from storage_service.files.blobs import blob_store, file_blob_name
from storage_service.files.models import Category, File
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id, new_folder_id
from tests.storage.factories import OrganisationFactory


def _organisation_of(o) -> Organisation:
    return o.parent.organisation if o.parent is not None else OrganisationFactory.create()


class FolderFactory(factory.django.DjangoModelFactory):
    """A live folder, under ``parent`` (and in its organisation) when one is given."""

    class Meta:
        model = Folder

    id = factory.LazyFunction(new_folder_id)
    parent = None
    organisation = factory.LazyAttribute(_organisation_of)
    name = factory.Sequence(lambda n: f"folder-{n}")
    path = factory.LazyAttribute(lambda o: (o.parent.path if o.parent else "/") + o.id + "/")


class FileFactory(factory.django.DjangoModelFactory):
    """A file whose ``data`` is stored under its ``storage_name``; a live one counts as quota."""

    class Meta:
        model = File

    id = factory.LazyFunction(new_file_id)
    folder = None
    organisation = factory.LazyAttribute(
        lambda o: o.folder.organisation if o.folder is not None else OrganisationFactory.create()
    )
    name = factory.Sequence(lambda n: f"file-{n}.txt")
    data = b"hello, folders"
    size = factory.LazyAttribute(lambda o: len(o.data))
    content_type = "text/plain"
    category = Category.DOCUMENT
    storage_name = factory.LazyAttribute(lambda o: file_blob_name(o.organisation.pk, o.id))

    @classmethod
    def _create(cls, model_class: type[File], *args, data: bytes, **kwargs) -> File:
        file = super()._create(model_class, *args, **kwargs)
        blob_store().save(file.storage_name, io.BytesIO(data))
        if file.deleted_at is None:
            Organisation.objects.filter(pk=file.organisation_id).update(
                storage_used=F("storage_used") + file.size, file_count=F("file_count") + 1
            )
        return file
