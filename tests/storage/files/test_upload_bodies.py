"""Multipart bodies as clients write them (RFC 7578 and RFC 2046), read part by part.

The parser reads the body in 1 MiB chunks, so files are sized for the closing boundary, or a
near-miss of it, to fall across a chunk's edge.
"""

from __future__ import annotations

import base64
import hashlib
import os
import random

import pytest

from storage_service.files.models import File
from tests.storage.envelope import data_of, error_of
from tests.storage.factories import FolderFactory
from tests.storage.files.downloading import body
from tests.storage.uploading import spill_files

pytestmark = pytest.mark.django_db

BOUNDARY = "----form-boundary-7MA4YWxkTrZu0gW"
CHUNK = 1024 * 1024


def part(headers: list[str], data: bytes) -> bytes:
    head = "".join(f"{line}\r\n" for line in headers).encode()
    return f"--{BOUNDARY}\r\n".encode() + head + b"\r\n" + data + b"\r\n"


def file_part(data: bytes, name: str = "a.bin", *extra: str) -> bytes:
    return part(
        [
            f'Content-Disposition: form-data; name="file"; filename="{name}"',
            "Content-Type: application/octet-stream",
            *extra,
        ],
        data,
    )


def closing() -> bytes:
    return f"--{BOUNDARY}--\r\n".encode()


def post(api, body: bytes):
    return api.generic(
        "POST",
        "/v1/files/upload",
        body,
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
    )


def downloaded(api, file: dict) -> bytes:
    return body(api.get(file["url"]))


@pytest.mark.parametrize(
    "size",
    [CHUNK - 200, CHUNK - 3, CHUNK, CHUNK + 1, 2 * CHUNK - 60, 3 * CHUNK + 7],
)
def test_files_whose_boundary_falls_across_a_chunk_edge_arrive_whole(api, size):
    data = os.urandom(size)
    body = file_part(data) + closing()
    file = data_of(post(api, body))["file"]
    assert file["size"] == size
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert downloaded(api, file) == data


def test_bytes_that_almost_spell_the_boundary_are_kept_as_they_are(api):
    near_misses = [
        f"\r\n--{BOUNDARY[:-1]}".encode(),
        f"\r\n--{BOUNDARY}x".encode(),  # the boundary and more: not a delimiter line
        f"--{BOUNDARY}".encode(),  # no CRLF before it
        b"\r\n\r\n--",
    ]
    # The first near-miss straddles the first chunk's edge, the rest sit inside chunks.
    data = os.urandom(CHUNK - 300) + near_misses[0] + os.urandom(CHUNK) + b"".join(near_misses)
    file = data_of(post(api, file_part(data) + closing()))["file"]
    assert file["size"] == len(data)
    assert downloaded(api, file) == data


def test_a_field_and_a_preamble_before_the_first_boundary_are_read(api, org):
    folder = FolderFactory(organisation=org)
    body = (
        b"This is a preamble, which RFC 2046 allows and readers ignore.\r\n"
        + part(['Content-Disposition: form-data; name="folderId"'], folder.id.encode())
        + file_part(b"hello")
        + closing()
        + b"an epilogue, ignored too"
    )
    file = data_of(post(api, body))["file"]
    assert (file["folderId"], file["size"]) == (folder.id, 5)


def test_a_file_name_in_rfc_2231_form_is_decoded(api):
    body = (
        part(
            [
                'Content-Disposition: form-data; name="file"; '
                "filename*=UTF-8''na%C3%AFve%20plan.txt",
                "Content-Type: text/plain",
            ],
            b"plan",
        )
        + closing()
    )
    assert data_of(post(api, body))["file"]["name"] == "naïve plan.txt"


def test_a_body_cut_off_inside_the_file_stores_nothing_and_leaves_no_spill_file(api, media_root):
    body = file_part(os.urandom(CHUNK + 500))[: CHUNK + 100]
    error = error_of(post(api, body), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert not File.objects.exists()
    assert spill_files(media_root) == []


def test_a_body_without_its_closing_boundary_stores_nothing(api, media_root):
    error = error_of(post(api, file_part(b"complete bytes")), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert not File.objects.exists()
    assert spill_files(media_root) == []


@pytest.mark.parametrize(
    "body",
    [
        b"not multipart at all",
        f"--{BOUNDARY}\r\nno colon in this header\r\n\r\nx\r\n--{BOUNDARY}--\r\n".encode(),
        b"",
    ],
)
def test_a_body_that_is_not_multipart_is_invalid_parameters(api, body):
    error = error_of(post(api, body), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert not File.objects.exists()


def test_a_part_header_block_over_a_kibibyte_is_refused(api):
    body = file_part(b"x", "a.bin", "X-Padding: " + "p" * 1100) + closing()
    error = error_of(post(api, body), 400)
    assert error["code"] == "INVALID_PARAMETERS"


@pytest.mark.parametrize("line_length", [76, 4, 1000])
def test_a_base64_part_is_decoded_as_django_decodes_it(api, line_length):
    data = os.urandom(CHUNK + 5000)  # the encoded part runs over several chunks
    encoded = base64.b64encode(data)
    wrapped = b"\r\n".join(
        encoded[i : i + line_length] for i in range(0, len(encoded), line_length)
    )
    body = file_part(wrapped, "a.bin", "Content-Transfer-Encoding: base64") + closing()
    file = data_of(post(api, body))["file"]
    assert file["size"] == len(data)
    assert file["metadata"]["sha256"] == hashlib.sha256(data).hexdigest()
    assert downloaded(api, file) == data


@pytest.mark.parametrize(
    "encoding, payload", [("base64", b"aGVsbG8"), ("quoted-printable", b"caf=C3=A9")]
)
def test_a_part_that_cannot_be_decoded_stores_nothing(api, media_root, encoding, payload):
    body = file_part(payload, "a.txt", f"Content-Transfer-Encoding: {encoding}") + closing()
    error = error_of(post(api, body), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert not File.objects.exists()
    assert spill_files(media_root) == []


def test_a_binary_transfer_encoding_is_the_bytes_as_they_are(api):
    body = file_part(b"\x00\xff raw", "a.bin", "Content-Transfer-Encoding: binary") + closing()
    file = data_of(post(api, body))["file"]
    assert downloaded(api, file) == b"\x00\xff raw"


def test_more_fields_than_django_allows_is_refused(api, settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 3
    fields = [part([f'Content-Disposition: form-data; name="f{i}"'], b"v") for i in range(10)]
    response = post(api, b"".join(fields) + file_part(b"x") + closing())
    assert response.status_code == 400
    assert not File.objects.exists()


def test_a_field_larger_than_django_keeps_in_memory_is_refused(api, settings, media_root):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    big = part(['Content-Disposition: form-data; name="folderId"'], b"f" * 5000)
    response = post(api, file_part(b"x") + big + closing())
    assert response.status_code == 400
    assert not File.objects.exists()
    assert spill_files(media_root) == []


def mutations(body: bytes, count: int, seed: int) -> list[bytes]:
    """Bodies a broken or hostile client might send: cut, flipped, repeated and spliced bytes."""
    rng = random.Random(seed)
    delimiter = f"\r\n--{BOUNDARY}".encode()
    made = []
    for _ in range(count):
        data = bytearray(body)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data) + 1)
            kind = rng.choice(["cut", "flip", "insert", "delimiter", "drop", "nul"])
            if kind == "cut":
                del data[at:]
            elif kind == "flip" and data:
                data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
            elif kind == "insert":
                data[at:at] = rng.randbytes(rng.randint(1, 40))
            elif kind == "delimiter":
                data[at:at] = delimiter + rng.choice([b"", b"--", b"\r\n", b"\r\n\r\n"])
            elif kind == "drop":
                del data[at : at + rng.randint(1, 60)]
            else:
                data[at:at] = b"\x00"
        made.append(bytes(data))
    return made


def test_no_mangled_body_is_a_server_error_or_leaves_a_spill_file(api, media_root):
    body = (
        part(['Content-Disposition: form-data; name="folderId"'], b"fold_x")
        + file_part(os.urandom(3000), "r\u00e9sum\u00e9.pdf")
        + closing()
    )
    statuses = set()
    for mangled in mutations(body, 150, seed=11):
        response = post(api, mangled)
        statuses.add(response.status_code)
        assert response.status_code in (200, 400, 404), (response.status_code, mangled[:200])
        assert response.json()["success"] is (response.status_code == 200)
        assert spill_files(media_root) == []
    assert 400 in statuses  # the mangling did reach the parser's refusals
