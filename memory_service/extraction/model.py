"""Ask an OpenAI-compatible chat-completions endpoint for candidate memories from a finished turn.

A provider that fails in any way raises ``ModelFailure`` (502 for that turn only). Its message says
what went wrong and never what came back: a provider's reply may echo the prompt, so neither the
reply, the turn's text nor the API key ever reaches an error or a log.
"""

from __future__ import annotations

import http.client
import json
import re
import urllib.error
import urllib.request
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

from memory_service.config import RULES_AND_MODEL, extractor_mode
from memory_service.errors import ModelFailure
from memory_service.extraction.candidates import FACT, KINDS, Candidate

MAX_CONTENT = 300
MAX_CANDIDATES = 20
MAX_SUBJECT = 100  # the length of Memory.subject
# A chat completion holding 20 short memories is a few kilobytes; more is not an answer to us.
MAX_REPLY_BYTES = 1_000_000
ENDPOINT = "/chat/completions"
_FENCE = re.compile(r"\s*```(?:json)?\s*(.*?)\s*```\s*", re.DOTALL | re.IGNORECASE)

SYSTEM_PROMPT = f"""\
You pick out what is worth remembering about a user from one finished conversation turn. The turn \
arrives as JSON with "userMessage" and "assistantResponse".

Extract only durable statements the user made: facts about themselves, their preferences, their \
work and projects, standing instructions to the assistant ("always", "never", "from now on") and \
corrections of something said earlier. Keep each in the user's own words, one statement per item. \
Read the assistant's response only to understand the user; never extract what the assistant said. \
Skip questions, small talk, hypotheticals and anything true only for the moment. Never include \
secrets: passwords, API keys, tokens, private keys or any other credential.

Give each item a "kind", one of: {", ".join(KINDS)}; and a "subject": a short lowercase phrase \
naming what it is about (for example "editor" or "deploy target").

Answer with JSON only, of exactly this shape, and {{"memories": []}} when there is nothing:
{{"memories": [{{"content": "...", "kind": "...", "subject": "..."}}]}}"""


def chat_completions_url(url: str) -> str:
    """Return the chat-completions address for an API base, or ``url`` when it already is one."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if not path.endswith(ENDPOINT):
        path += ENDPOINT
    return urlunsplit(parts._replace(path=path))


def extract_with_model(
    *,
    user_message: str,
    assistant_response: str,
    url: str,
    model: str,
    api_key: str,
    timeout: float,
) -> list[Candidate]:
    """Ask the model at ``url`` for the turn's candidate memories, or raise ModelFailure."""
    turn = json.dumps({"userMessage": user_message, "assistantResponse": assistant_response})
    body = {
        "model": model,
        "temperature": 0,
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": turn},
        ],
        "response_format": {"type": "json_object"},
    }
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    request = urllib.request.Request(  # noqa: S310 -- config admits only http(s) URLs
        chat_completions_url(url), data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    return _candidates(_reply_content(_post(request, timeout)))


def model_candidates(user_message: str, assistant_response: str) -> list[Candidate] | None:
    """Ask the configured model for the turn's candidates; return None when none is configured."""
    if extractor_mode(settings.MEMORY_MODEL_URL, settings.MEMORY_MODEL_NAME) != RULES_AND_MODEL:
        return None
    return extract_with_model(
        user_message=user_message,
        assistant_response=assistant_response,
        url=settings.MEMORY_MODEL_URL,
        model=settings.MEMORY_MODEL_NAME,
        api_key=settings.MEMORY_MODEL_API_KEY,
        timeout=settings.MEMORY_MODEL_TIMEOUT,
    )


def _post(request: urllib.request.Request, timeout: float) -> bytes:
    # Failures are raised "from None" or outside the except block: a cause can hold the reply
    # (HTTPError keeps the body, JSONDecodeError the document) and put it in a traceback.
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            raw = response.read(MAX_REPLY_BYTES + 1)
    except urllib.error.HTTPError as error:
        error.close()
        raise ModelFailure(f"The model provider answered with status {error.code}.") from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        # A timeout while connecting arrives wrapped in a URLError, one while reading bare.
        if isinstance(getattr(error, "reason", error), TimeoutError):
            message = f"The model provider did not answer within {timeout:g} seconds."
        else:
            message = "The model provider could not be reached."
        raise ModelFailure(message) from None
    if len(raw) > MAX_REPLY_BYTES:
        raise ModelFailure(f"The model provider's answer is over {MAX_REPLY_BYTES} bytes.")
    return raw


def _reply_content(raw: bytes) -> str:
    try:
        content = json.loads(raw)["choices"][0]["message"]["content"]
    except (ValueError, LookupError, TypeError):
        content = None
    if not isinstance(content, str):
        raise ModelFailure("The model provider's answer is not a chat completion.")
    return content


def _candidates(content: str) -> list[Candidate]:
    fenced = _FENCE.fullmatch(content)
    try:
        items = json.loads(fenced.group(1) if fenced else content)["memories"]
    except (ValueError, LookupError, TypeError):
        items = None
    if not isinstance(items, list):
        raise ModelFailure('The model did not answer with JSON of the shape {"memories": [...]}.')
    candidates = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("content"), str):
            continue
        text = item["content"].strip()[:MAX_CONTENT].strip()
        if not text:
            continue
        kind = item.get("kind")
        kind = kind.strip().lower() if isinstance(kind, str) else ""
        subject = item.get("subject")
        subject = subject.strip().lower()[:MAX_SUBJECT].strip() if isinstance(subject, str) else ""
        candidates.append(Candidate(text, kind if kind in KINDS else FACT, subject or None))
        if len(candidates) == MAX_CANDIDATES:
            break
    return candidates
