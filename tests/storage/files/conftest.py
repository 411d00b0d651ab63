from __future__ import annotations

import pytest

from tests.storage.files.downloading import DATA
from tests.storage.uploading import upload_file


@pytest.fixture
def stored(api) -> dict:
    """A file of ``DATA``, uploaded as a client would, for the download tests."""
    return upload_file(api, "bytes.bin", DATA)
