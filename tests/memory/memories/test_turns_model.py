"""POST /v1/turns with the optional model extractor configured, against a local provider."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from memory_service.memories.models import Memory

pytestmark = pytest.mark.django_db

URL = "/api/v1/turns"


class Provider:
    """A chat-completions endpoint on loopback answering ``reply`` with ``status``."""

    def __init__(self) -> None:
        self.status = 200
        self.reply: dict = {"memories": []}
        self.requests: list[dict] = []
        provider = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers["Content-Length"])
                provider.requests.append(json.loads(self.rfile.read(length)))
                content = json.dumps(provider.reply)
                body = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
                self.send_response(provider.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"


@pytest.fixture
def provider(settings) -> Iterator[Provider]:
    provider = Provider()
    thread = threading.Thread(target=provider.server.serve_forever, daemon=True)
    thread.start()
    settings.MEMORY_MODEL_URL = provider.url
    settings.MEMORY_MODEL_NAME = "tiny-test-model"
    settings.MEMORY_MODEL_API_KEY = ""
    yield provider
    provider.server.shutdown()
    provider.server.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_models_candidates_join_the_rules_and_are_reconciled(api, org, provider):
    provider.reply = {
        "memories": [
            {"content": "The user runs a bakery in Porto.", "kind": "fact", "subject": "job"},
            {"content": "I use zsh as my shell.", "kind": "fact", "subject": "shell"},
        ]
    }
    message = "I use zsh as my shell. Been baking since 5am at my place in Porto."
    body = api.post(URL, {"userMessage": message, "assistantResponse": "Nice."}).json()
    held = set(Memory.objects.for_org(org).values_list("content", flat=True))
    assert held >= {"The user runs a bakery in Porto.", "I use zsh as my shell."}
    assert body["counts"]["stored"] == len(held)
    assert provider.requests[0]["model"] == "tiny-test-model"


def test_a_secret_from_the_model_is_rejected_too(api, org, provider):
    provider.reply = {"memories": [{"content": "The API key is sk-proj-9aZ8bY7cX6dW5eV4fU3gT2hS1"}]}
    body = api.post(URL, {"userMessage": "ok here it is", "assistantResponse": "ok"}).json()
    assert "secret" in [item["reason"] for item in body["rejected"]]
    assert not Memory.objects.filter(content__contains="sk-proj").exists()


def test_a_failing_provider_is_model_failure_for_the_turn_and_nothing_is_kept(api, org, provider):
    provider.status = 500
    answer = api.post(URL, {"userMessage": "I use zsh as my shell.", "assistantResponse": "ok"})
    assert answer.status_code == 502
    assert answer.json()["error"] == "ModelFailure"
    assert not Memory.objects.for_org(org).exists()


def test_an_unreachable_provider_is_model_failure(api, settings):
    settings.MEMORY_MODEL_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.MEMORY_MODEL_NAME = "absent"
    answer = api.post(URL, {"userMessage": "I use zsh as my shell.", "assistantResponse": "ok"})
    assert answer.status_code == 502 and answer.json()["error"] == "ModelFailure"


def test_a_lookup_turn_does_not_need_the_model(api, settings):
    settings.MEMORY_MODEL_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.MEMORY_MODEL_NAME = "absent"
    answer = api.post(URL, {"userMessage": "What's my shell?", "assistantResponse": "zsh"})
    assert answer.status_code == 200 and answer.json()["counts"]["stored"] == 0


def test_recall_and_direct_stores_never_depend_on_the_model(api, settings):
    settings.MEMORY_MODEL_URL = f"http://127.0.0.1:{closed_port()}/v1"
    settings.MEMORY_MODEL_NAME = "absent"
    assert api.post("/api/v1/memories", {"content": "Biscuit is a beagle."}).status_code == 200
    assert api.post("/api/v1/recall", {"query": "beagle"}).json()["empty"] is False


def test_health_reports_rules_and_model_when_configured(client_for, provider):
    assert client_for(None).get("/api/v1/health").json()["extractor"] == "rules+model"
