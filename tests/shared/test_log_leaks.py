"""The reader of a run's logs finds what must never be in them."""

from __future__ import annotations

import json

from django.core import signing

from shared.access_log import redact
from tests.log_leaks import leaked_lines

TOKEN = signing.dumps(["org_1", "file_2"], salt="storage.file-download", compress=False)


def test_a_signed_link_a_key_or_a_known_secret_is_found_and_a_redacted_line_is_not(tmp_path):
    log = tmp_path / "gunicorn.log"
    lines = [
        json.dumps({"message": f"GET /v1/downloads/{TOKEN} HTTP/1.1"}),
        json.dumps({"message": "auth Bearer ak_" + "x" * 40}),
        json.dumps({"message": "the pepper is hunter2-but-longer"}),
        json.dumps({"message": redact(f"GET /v1/downloads/{TOKEN} HTTP/1.1")}),
        json.dumps({"message": "GET /v1/keys/key_9NTEk8WpQnGab9SX7jU6 HTTP/1.1"}),
    ]
    log.write_text("\n".join(lines))
    assert leaked_lines([log], ["hunter2-but-longer"]) == lines[:3]
