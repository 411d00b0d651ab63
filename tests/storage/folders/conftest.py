from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User

from storage_service.accounts.models import Organisation
from tests.storage.factories import FileFactory, FolderFactory


@pytest.fixture
def photos(org) -> SimpleNamespace:
    """A nested tree in ``org``; 3 files of 1,110 bytes below Photos, 3 folders under it.

    Photos/ notes.txt (10)
        2024/ a.jpg (100)
            Summer/ b.jpg (1000)
            Empty/
    """
    photos = FolderFactory(organisation=org, name="Photos")
    year = FolderFactory(parent=photos, name="2024")
    summer = FolderFactory(parent=year, name="Summer")
    empty = FolderFactory(parent=year, name="Empty")
    return SimpleNamespace(
        photos=photos,
        year=year,
        summer=summer,
        empty=empty,
        notes=FileFactory(folder=photos, name="notes.txt", data=b"n" * 10),
        a=FileFactory(folder=year, name="a.jpg", data=b"a" * 100),
        b=FileFactory(folder=summer, name="b.jpg", data=b"b" * 1000),
        size=1110,
    )


@pytest.fixture
def permanent(org) -> Organisation:
    """Switch ``org`` to permanent folder deletion."""
    org.folder_deletion = Organisation.FolderDeletion.PERMANENT
    org.save(update_fields=["folder_deletion"])
    return org


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", "root@example.com", "pw"))
    return client
