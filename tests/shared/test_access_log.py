from __future__ import annotations

import datetime
import json
import logging
from types import SimpleNamespace

import pytest
from django.core import signing
from gunicorn.config import Config
from gunicorn.glogging import SafeAtoms

from shared.access_log import RedactingFilter, RedactingLogger, access_line, redact

# Signed the way storage_service.files.serializers signs a download link.
TOKEN = signing.dumps(["org_1", "file_2"], salt="storage.file-download", compress=False)
ENCODED = TOKEN.replace(":", "%3A")


@pytest.fixture
def logger(tmp_path) -> RedactingLogger:
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("errorlog", str(tmp_path / "error.log"))
    return RedactingLogger(cfg)


def raw_atoms(logger: RedactingLogger, uri: str, **headers: str) -> dict:
    path, _, query = uri.partition("?")
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": uri,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        **{f"HTTP_{name.upper()}": value for name, value in headers.items()},
    }
    req = SimpleNamespace(headers=[(name.upper(), value) for name, value in headers.items()])
    resp = SimpleNamespace(
        status="200 OK", headers=[("Content-Length", "5"), ("X-Request-Id", "req-7")], sent=5
    )
    return logger.atoms(resp, req, environ, datetime.timedelta(milliseconds=3))


def request_atoms(logger: RedactingLogger, uri: str, **headers: str) -> SafeAtoms:
    return logger.atoms_wrapper_class(raw_atoms(logger, uri, **headers))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"/v1/downloads/{TOKEN}", "/v1/downloads/<redacted>"),
        (f"/v1/downloads/{TOKEN}/", "/v1/downloads/<redacted>/"),
        (f"/v1/downloads/{ENCODED}?x=1", "/v1/downloads/<redacted>?x=1"),
        (
            f"https://s.example/v1/downloads/{TOKEN}#a",
            "https://s.example/v1/downloads/<redacted>#a",
        ),
        (
            f"next=%2Fv1%2Fdownloads%2F{ENCODED}&page=2",
            "next=%2Fv1%2Fdownloads%2F<redacted>&page=2",
        ),
        (f"token={TOKEN}&page=2", "token=<redacted>&page=2"),
        (f"token={ENCODED}", "token=<redacted>"),
        (f"GET /v1/downloads/{TOKEN} HTTP/1.1", "GET /v1/downloads/<redacted> HTTP/1.1"),
    ],
)
def test_redact_replaces_the_token_wherever_it_stands(text, expected):
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "/v1/files/file_123?folderId=fld_9&page=2",
        "[25/Nov/2026:02:03:28 +0000]",
        "/api/v1/health",
        "fe80::1",
    ],
)
def test_redact_leaves_everything_else_alone(text):
    assert redact(text) == text


def test_the_request_line_path_and_query_atoms_carry_no_token(logger):
    atoms = request_atoms(logger, f"/v1/downloads/{TOKEN}?via=/v1/downloads/{TOKEN}")
    assert atoms["r"] == ("GET /v1/downloads/<redacted>?via=/v1/downloads/<redacted> HTTP/1.1")
    assert atoms["U"] == "/v1/downloads/<redacted>"
    assert atoms["q"] == "via=/v1/downloads/<redacted>"
    assert atoms["{raw_uri}e"] == "/v1/downloads/<redacted>?via=/v1/downloads/<redacted>"


def test_the_default_format_logs_a_redacted_download_line(logger):
    atoms = request_atoms(logger, f"/v1/downloads/{TOKEN}", referer=f"/v1/downloads/{TOKEN}")
    line = logger.cfg.access_log_format % atoms
    assert TOKEN not in line
    assert '"GET /v1/downloads/<redacted> HTTP/1.1" 200 5 "/v1/downloads/<redacted>"' in line


def test_an_access_line_is_json_with_the_request_id_and_no_token(logger):
    atoms = raw_atoms(logger, f'/v1/downloads/{TOKEN}?q="x"', authorization="Bearer ak_secret")
    line = json.loads(access_line(atoms))
    assert TOKEN not in json.dumps(line) and "ak_secret" not in json.dumps(line)
    assert line["requestId"] == "req-7"
    assert (line["method"], line["path"], line["query"]) == (
        "GET",
        "/v1/downloads/<redacted>",
        'q="x"',
    )
    assert (line["status"], line["bytes"], line["durationMs"]) == (200, 5, 3.0)
    assert (line["level"], line["logger"]) == ("INFO", "gunicorn.access")


def test_credential_headers_are_dash_even_in_a_custom_format(logger):
    atoms = request_atoms(logger, "/v1/keys", authorization="Bearer ak_secret", cookie="s=1")
    custom = "%({authorization}i)s %({cookie}i)s %({http_authorization}e)s %({http_cookie}e)s"
    assert custom % atoms == "- - - -"
    assert atoms["s"] == "200" and atoms["U"] == "/v1/keys"


def test_the_error_log_redacts_a_request_uri(logger, tmp_path):
    logger.error("Error handling request %s", f"/v1/downloads/{TOKEN}")
    for handler in logging.getLogger("gunicorn.error").handlers:
        handler.flush()
    text = (tmp_path / "error.log").read_text()
    line = json.loads(text.splitlines()[-1])
    assert line["message"] == "Error handling request /v1/downloads/<redacted>"
    assert (line["level"], line["requestId"]) == ("ERROR", "-")
    assert TOKEN not in text


def test_setting_up_again_adds_no_second_filter(logger):
    logger.setup(logger.cfg)
    filters = [f for f in logger.error_log.filters if isinstance(f, RedactingFilter)]
    assert len(filters) == 1
