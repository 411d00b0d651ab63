from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from memory_service.errors import ModelFailure
from memory_service.extraction.candidates import Candidate
from memory_service.extraction.model import extract_with_model, model_candidates

KEY = "sk-test-provider-key-0123456789"
USER_MESSAGE = "I use Neovim for everything, and always answer me in British English."
# A provider may echo the prompt back in an error body; none of it may reach an error message.
ECHO = f"upstream rejected prompt: {USER_MESSAGE}"


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class Provider:
    """A local OpenAI-compatible endpoint: set what it answers, read what it was sent."""

    base_url: str
    status: int = 200
    body: bytes = b""
    delay: float = 0.0
    requests: list[Received] = field(default_factory=list)

    def answer(self, content: str) -> None:
        """Answer with a chat completion whose message content is ``content``."""
        completion = {"choices": [{"message": {"role": "assistant", "content": content}}]}
        self.body = json.dumps(completion).encode()

    def answer_memories(self, memories: list[Any]) -> None:
        self.answer(json.dumps({"memories": memories}))


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        provider = self.server.provider
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        provider.requests.append(Received(self.path, dict(self.headers), json.loads(body)))
        time.sleep(provider.delay)
        self.send_response(provider.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(provider.body)))
        self.end_headers()
        self.wfile.write(provider.body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


class _Server(ThreadingHTTPServer):
    # A handler still sleeping past the client's timeout need not hold up the teardown.
    block_on_close = False

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # the client of the timeout test has hung up before the answer is written


@pytest.fixture
def provider() -> Iterator[Provider]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.provider = Provider(base_url=f"http://127.0.0.1:{server.server_address[1]}/v1")
    server.provider.answer_memories([])
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    yield server.provider
    server.shutdown()
    server.server_close()
    thread.join()


def extract(url: str, *, api_key: str = KEY, timeout: float = 5.0) -> list[Candidate]:
    return extract_with_model(
        user_message=USER_MESSAGE,
        assistant_response="Noted.",
        url=url,
        model="small-model",
        api_key=api_key,
        timeout=timeout,
    )


def test_candidates_are_parsed_with_their_kind_and_subject(provider):
    provider.answer_memories(
        [
            {"content": "I use Neovim for everything", "kind": "preference", "subject": "editor"},
            {"content": "Always answer me in British English", "kind": "instruction"},
        ]
    )
    assert extract(provider.base_url) == [
        Candidate("I use Neovim for everything", "preference", "editor"),
        Candidate("Always answer me in British English", "instruction", None),
    ]


def test_a_reply_wrapped_in_a_json_fence_is_read(provider):
    memory = {"content": "I use Neovim", "kind": "preference", "subject": "Editor"}
    provider.answer(f"```json\n{json.dumps({'memories': [memory]})}\n```")
    assert extract(provider.base_url) == [Candidate("I use Neovim", "preference", "editor")]


def test_an_unknown_kind_becomes_a_fact_and_unusable_items_are_dropped(provider):
    provider.answer_memories(
        [
            "I use Neovim",
            {"content": "   ", "kind": "fact"},
            {"kind": "fact", "subject": "nothing"},
            {"content": 42, "kind": "fact"},
            {"content": "I work on the billing team", "kind": "biography", "subject": "team"},
        ]
    )
    assert extract(provider.base_url) == [Candidate("I work on the billing team", "fact", "team")]


def test_content_is_capped_at_300_characters_and_candidates_at_20(provider):
    provider.answer_memories([{"content": f"{i} " + "x" * 400, "kind": "fact"} for i in range(30)])
    candidates = extract(provider.base_url)
    assert len(candidates) == 20
    assert {len(candidate.content) for candidate in candidates} == {300}


def test_an_empty_list_of_memories_is_no_candidates(provider):
    assert extract(provider.base_url) == []


def test_the_request_names_the_model_at_temperature_0_and_asks_for_json(provider):
    extract(provider.base_url)
    [request] = provider.requests
    assert request.body["model"] == "small-model"
    assert request.body["temperature"] == 0
    assert request.body["response_format"] == {"type": "json_object"}
    system, user = request.body["messages"]
    assert system["role"] == "system" and '{"memories": [' in system["content"]
    assert user["role"] == "user" and USER_MESSAGE in json.loads(user["content"])["userMessage"]


def test_the_key_is_sent_as_a_bearer_token(provider):
    extract(provider.base_url)
    assert provider.requests[0].headers["Authorization"] == f"Bearer {KEY}"


def test_no_authorization_is_sent_without_a_key(provider):
    extract(provider.base_url, api_key="")
    assert "Authorization" not in provider.requests[0].headers


@pytest.mark.parametrize("suffix", ["", "/"])
def test_a_base_url_is_posted_to_its_chat_completions_endpoint(provider, suffix):
    extract(provider.base_url + suffix)
    assert provider.requests[0].path == "/v1/chat/completions"


def test_a_url_that_is_already_the_endpoint_is_used_as_it_is(provider):
    extract(provider.base_url + "/chat/completions")
    assert provider.requests[0].path == "/v1/chat/completions"


def assert_model_failure(url: str, *, timeout: float = 5.0) -> ModelFailure:
    with pytest.raises(ModelFailure) as raised:
        extract(url, timeout=timeout)
    error = raised.value
    assert error.status == 502
    for leak in (KEY, USER_MESSAGE, "Neovim"):
        assert leak not in error.message
    return error


def test_an_error_status_is_a_model_failure_without_the_body(provider):
    provider.status, provider.body = 500, json.dumps({"error": ECHO}).encode()
    assert "500" in assert_model_failure(provider.base_url).message


def test_a_body_that_is_not_json_is_a_model_failure(provider):
    provider.body = ECHO.encode()
    assert_model_failure(provider.base_url)


@pytest.mark.parametrize(
    "body",
    [{"error": ECHO}, {"choices": []}, {"choices": [{"message": {}}]}, ["choices"]],
    ids=["no choices", "empty choices", "no content", "a list"],
)
def test_a_body_that_is_not_a_chat_completion_is_a_model_failure(provider, body):
    provider.body = json.dumps(body).encode()
    assert_model_failure(provider.base_url)


@pytest.mark.parametrize(
    "content",
    [ECHO, '["I use Neovim"]', '{"facts": []}', '{"memories": "I use Neovim"}', "```json\n{\n```"],
    ids=["prose", "a list", "another key", "not a list", "a broken fence"],
)
def test_a_reply_that_is_not_json_of_the_asked_shape_is_a_model_failure(provider, content):
    provider.answer(content)
    assert_model_failure(provider.base_url)


def test_a_refused_connection_is_a_model_failure():
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    assert "reached" in assert_model_failure(f"http://127.0.0.1:{port}/v1").message


def test_a_provider_slower_than_the_timeout_is_a_model_failure(provider):
    provider.delay = 2.0
    started = time.monotonic()
    assert "0.2 seconds" in assert_model_failure(provider.base_url, timeout=0.2).message
    assert time.monotonic() - started < 1.5


def test_model_candidates_is_none_when_no_model_is_configured(settings):
    settings.MEMORY_MODEL_URL, settings.MEMORY_MODEL_NAME = "", ""
    assert model_candidates(USER_MESSAGE, "Noted.") is None


def test_model_candidates_is_none_with_a_url_but_no_model_name(settings):
    settings.MEMORY_MODEL_URL, settings.MEMORY_MODEL_NAME = "https://llm.example/v1", ""
    assert model_candidates(USER_MESSAGE, "Noted.") is None


def test_model_candidates_asks_the_configured_model(settings, provider):
    settings.MEMORY_MODEL_URL = provider.base_url
    settings.MEMORY_MODEL_NAME = "configured-model"
    settings.MEMORY_MODEL_API_KEY = ""
    settings.MEMORY_MODEL_TIMEOUT = 5.0
    provider.answer_memories([{"content": "I use Neovim", "kind": "preference"}])
    assert model_candidates(USER_MESSAGE, "Noted.") == [Candidate("I use Neovim", "preference")]
    [request] = provider.requests
    assert request.body["model"] == "configured-model"
    assert "Authorization" not in request.headers
