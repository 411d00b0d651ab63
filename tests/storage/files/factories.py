from __future__ import annotations

import io

import factory
from django.db.models import F

from storage_service.accounts.models import Organisation
from storage_service.files.blobs import blob_store, file_blob_name
from storage_service.files.models import File
from storage_service.files.sniffing import category_of
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id
from tests.storage.factories import OrganisationFactory


class FolderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Folder

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"folder-{n}")
    parent = None

    @classmethod
    def _create(cls, model_class: type[Folder], *args, **kwargs) -> Folder:
        # The plugin takes *args for the first field's value.
        folder = model_class(*args, **kwargs)  # type: ignore[misc]
        parent_path = folder.parent.path if folder.parent else "/"
        folder.path = f"{parent_path}{folder.pk}/"
        folder.save()
        return folder


class FileFactory(factory.django.DjangoModelFactory):
    """A file with real bytes in storage, counted against its organisation's quota."""

    class Meta:
        model = File

    id = factory.LazyFunction(new_file_id)
    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"file-{n}.txt")
    content_type = "text/plain"
    category = factory.LazyAttribute(lambda o: category_of(o.content_type))
    size = 16
    storage_name = factory.LazyAttribute(lambda o: file_blob_name(o.organisation.pk, o.id))

    @classmethod
    def _create(cls, model_class: type[File], *args, **kwargs) -> File:
        file = super()._create(model_class, *args, **kwargs)
        blob_store().save(file.storage_name, io.BytesIO(b"x" * file.size))
        if file.deleted_at is None:
            Organisation.objects.filter(pk=file.organisation_id).update(
                storage_used=F("storage_used") + file.size, file_count=F("file_count") + 1
            )
        return file
