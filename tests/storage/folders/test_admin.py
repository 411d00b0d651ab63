from __future__ import annotations

import pytest
from django.contrib.admin.utils import quote

from storage_service import clock
from storage_service.folders.models import Folder
from tests.storage.factories import FolderFactory
from tests.storage.folders.helpers import data_of, usage

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/folders/folder/"


def test_the_admin_lists_folders_with_their_tree_path_as_names(staff_client, photos):
    page = staff_client.get(CHANGELIST).content.decode()
    assert "/Photos/2024/Summer" in page and photos.photos.organisation.name in page


def test_the_admin_filters_by_trash_state_and_searches_by_name_or_id(staff_client, org, photos):
    FolderFactory(organisation=org, name="Binned", deleted_at=clock.now())
    trashed = staff_client.get(CHANGELIST, {"trash": "trashed"}).content.decode()
    assert "Binned" in trashed and "Summer" not in trashed
    live = staff_client.get(CHANGELIST, {"trash": "live"}).content.decode()
    assert "Binned" not in live and "Summer" in live
    assert "/Photos/2024" in staff_client.get(CHANGELIST, {"q": photos.year.pk}).content.decode()
    assert "Summer" in staff_client.get(CHANGELIST, {"q": "summ"}).content.decode()


def test_the_admin_restore_action_restores_through_the_service(staff_client, api, org, photos):
    data_of(api.delete(f"/v1/folders/{photos.photos.pk}?force=true"))
    response = staff_client.post(
        CHANGELIST,
        {"action": "restore_from_trash", "_selected_action": [photos.photos.pk, photos.year.pk]},
        follow=True,
    )
    page = response.content.decode()
    assert "Restored 1 folder(s)." in page and "Not restored: 2024" in page
    assert Folder.objects.live().count() == 4 and usage(org) == (1110, 3)


def test_folders_are_read_only_in_the_admin(staff_client, photos):
    assert staff_client.get("/admin/folders/folder/add/").status_code == 403
    page = staff_client.get(f"/admin/folders/folder/{quote(photos.year.pk)}/change/")
    assert page.status_code == 200 and "/Photos/2024" in page.content.decode()
    assert (
        staff_client.get(f"/admin/folders/folder/{quote(photos.year.pk)}/delete/").status_code
        == 403
    )
