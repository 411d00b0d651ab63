"""One rule for the characters of a name: files (single and multipart, PATCH), folders, keys."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from storage_service.files.models import File
from tests.storage.envelope import data_of, error_of
from tests.storage.uploading import upload_file

pytestmark = pytest.mark.django_db

REFUSED = [
    "invoice\u202efdp.exe",  # right-to-left override: reads "invoiceexe.pdf"
    "isolate\u2066x\u2069.txt",
    "tab\there",
    "line\u2028break",
    "nul\x00byte",
]
KEPT = [
    "Screenshot 2026-11-25 at 10.00.00\u202fAM.png",  # macOS's narrow no-break space
    "family \U0001f468\u200d\U0001f469\u200d\U0001f467.jpg",  # joiners inside an emoji
    "\u05d3\u05d5\u05d7 \u200f2026.pdf",  # Hebrew with a right-to-left mark
]


def folder_create(api, name: str):
    return api.post("/v1/folders", {"name": name}, format="json")


def folder_rename(api, name: str):
    folder = data_of(folder_create(api, "plain"))["folder"]
    return api.patch(f"/v1/folders/{folder['folderId']}", {"name": name}, format="json")


def file_upload(api, name: str):
    # Django's parser would cut the name at a line break, so send it as the client wrote it.
    content = SimpleUploadedFile(name, b"x")
    return api.post("/v1/files/upload", {"file": content}, format="multipart")


def file_rename(api, name: str):
    file = upload_file(api, "plain.txt", b"x")
    return api.patch(f"/v1/files/{file['id']}", {"name": name}, format="json")


def multipart_start(api, name: str):
    body = {"name": name, "size": 10}
    return api.post("/v1/files/multipart-upload-start", body, format="json")


def key_create(api, name: str):
    return api.post("/v1/keys", {"name": name}, format="json")


WRITERS = {
    "folder create": (folder_create, "INVALID_PARAMETERS", "name"),
    "folder rename": (folder_rename, "INVALID_PARAMETERS", "name"),
    "file upload": (file_upload, "INVALID_PARAMETERS", "file"),
    "file rename": (file_rename, "INVALID_PARAMETERS", "name"),
    "multipart start": (multipart_start, "INVALID_PARAMETERS", "name"),
    "key create": (key_create, "INVALID_KEY_NAME", "reason"),
}


# A multipart header cannot carry a NUL or a line break as sent, so uploads are not tried with them.
REFUSALS = [
    (writer, name)
    for writer in WRITERS
    for name in REFUSED
    if not (writer == "file upload" and name.startswith(("nul", "line")))
]


@pytest.mark.parametrize(("writer", "name"), REFUSALS)
def test_every_name_refuses_the_same_characters(api, writer, name):
    write, code, field = WRITERS[writer]
    error = error_of(write(api, name), 400)
    assert error["code"] == code
    assert "U+" in error["details"][field]


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("name", KEPT)
def test_every_name_keeps_the_same_characters(api, writer, name):
    write, _, _ = WRITERS[writer]
    answer = data_of(write(api, name))
    if writer == "multipart start":  # its answer is the upload, whose state holds the name
        answer = data_of(api.get(f"/v1/files/multipart-upload/{answer['uploadId']}"))
    stored = (answer.get("folder") or answer.get("file") or answer.get("key") or answer)["name"]
    assert stored == name


def test_a_refused_upload_keeps_nothing(api):
    error_of(file_upload(api, "invoice\u202efdp.exe"), 400)
    assert not File.objects.exists()
