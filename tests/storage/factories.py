from __future__ import annotations

import io

import factory
from django.db.models import F

from shared import keys
from storage_service.accounts.models import ApiKey, Organisation
from storage_service.accounts.permissions import ADMIN
from storage_service.files.blobs import blob_store, file_blob_name
from storage_service.files.models import File
from storage_service.files.sniffing import category_of
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id, new_folder_id


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"org-{n}")
    plan = Organisation.Plan.FREE


class ApiKeyFactory(factory.django.DjangoModelFactory):
    """A stored key; the plain secret is left on the instance as ``secret`` for the test to use."""

    class Meta:
        model = ApiKey

    organisation = factory.SubFactory(OrganisationFactory)
    name = factory.Sequence(lambda n: f"key-{n}")
    permissions = factory.LazyFunction(lambda: [ADMIN])
    secret = factory.LazyFunction(lambda: keys.generate("ak_"))
    prefix = factory.LazyAttribute(lambda o: keys.display_prefix(o.secret))
    secret_hash = factory.LazyAttribute(lambda o: keys.secret_hash(o.secret, _pepper()))

    @classmethod
    def _create(cls, model_class: type[ApiKey], *args, secret: str, **kwargs) -> ApiKey:
        key = super()._create(model_class, *args, **kwargs)
        key.secret = secret
        return key


def _pepper() -> str:
    from django.conf import settings

    return settings.API_KEY_PEPPER


DEFAULT_BYTES = b"hello, storage"


def _organisation_of(o) -> Organisation:
    above = getattr(o, "parent", None) or getattr(o, "folder", None)
    return above.organisation if above is not None else OrganisationFactory.create()


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
    """A file with real bytes in storage; a live one counts against its organisation's quota.

    The bytes are ``data`` when given, else ``size`` bytes of ``x`` when given, else
    ``DEFAULT_BYTES``; ``size`` always ends up their length.
    """

    class Meta:
        model = File

    id = factory.LazyFunction(new_file_id)
    folder = None
    organisation = factory.LazyAttribute(_organisation_of)
    name = factory.Sequence(lambda n: f"file-{n}.txt")
    data = None
    size = None
    content_type = "text/plain"
    category = factory.LazyAttribute(lambda o: category_of(o.content_type))
    storage_name = factory.LazyAttribute(lambda o: file_blob_name(o.organisation.pk, o.id))

    @classmethod
    def _create(cls, model_class: type[File], *args, data: bytes | None, **kwargs) -> File:
        if data is None:
            size = kwargs["size"]
            data = DEFAULT_BYTES if size is None else b"x" * size
        kwargs["size"] = len(data)
        file = super()._create(model_class, *args, **kwargs)
        blob_store().save(file.storage_name, io.BytesIO(data))
        if file.deleted_at is None:
            Organisation.objects.filter(pk=file.organisation_id).update(
                storage_used=F("storage_used") + file.size, file_count=F("file_count") + 1
            )
        return file
