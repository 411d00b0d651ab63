from __future__ import annotations

import pytest

from storage_service.folders.models import Folder


@pytest.fixture(autouse=True)
def small_parts(settings):
    """Let parts be as small as 1 KiB, so a test can send a file of a few parts."""
    settings.MULTIPART_MIN_PART_SIZE = 1024


@pytest.fixture
def folder(org) -> Folder:
    return make_folder(org)


def make_folder(org, name: str = "docs") -> Folder:
    folder = Folder(organisation=org, name=name)
    folder.path = f"/{folder.pk}/"
    folder.save()
    return folder


def set_free_plan(settings, **limits: int) -> None:
    """Change the free plan's limits (test organisations are on it) for this test only."""
    settings.PLANS = {**settings.PLANS, "free": {**settings.PLANS["free"], **limits}}
