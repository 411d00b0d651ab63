"""Blocks for a few hundred held memories and a few hundred messages people wrote: every line
accounted for, the ceiling held, no archived memory and nothing of another organisation."""

from __future__ import annotations

import json
import random
import re

import pytest

from memory_service.context import tokens
from memory_service.context.block import SECTIONS
from memory_service.memories.models import ARCHIVE, CORE, WORKING, Memory
from memory_service.memories.normalise import fingerprint
from memory_service.recall.text import terms
from tests.memory.factories import MemoryFactory
from tests.memory.labelled import DATA, load_turns

pytestmark = pytest.mark.django_db

MESSAGES = 300
CEILINGS = [2000, 2000, 400, 120, 40]


@pytest.fixture
def held(org, other_org) -> dict[str, Memory]:
    """Give ``org`` every labelled memory and stored statement, in all tiers; ``other_org``
    a copy of some, so that a leak would show."""
    rng = random.Random(11)
    contents = [json.loads(line)["content"] for line in (DATA / "memories.jsonl").open()]
    contents += [
        item["content"] for turn in load_turns("development") for item in turn["expected"]["stored"]
    ]
    # One per fingerprint: the service holds restatements as one memory.
    contents = list({fingerprint(c): c for c in reversed(contents)}.values())[:400]
    memories = {}
    for content in contents:
        tier = rng.choices([WORKING, CORE, ARCHIVE], weights=[6, 1, 2])[0]
        memory = MemoryFactory(organisation=org, content=content, tier=tier)
        memories[memory.id] = memory
    for content in contents[:150]:
        MemoryFactory(organisation=other_org, content=f"{content} (theirs)", tier=CORE)
    return memories


def test_every_block_accounts_for_each_line_within_its_ceiling(api, held, settings):
    settings.MEMORY_MAX_INDEX_ITEMS = 25
    rng = random.Random(3)
    turns = load_turns("development")
    messages = [turn["userMessage"] for turn in rng.sample(turns, MESSAGES)]
    triggered_any = 0
    for n, message in enumerate(messages):
        ceiling = CEILINGS[n % len(CEILINGS)]
        transcript = rng.choice(messages) if n % 3 == 0 else ""
        body = {"userMessage": message, "maxTokens": ceiling, "transcript": transcript}
        response = api.post("/api/v1/context", body, format="json")
        assert response.status_code == 200, (message, response.content)
        block = response.json()

        lines = block["text"].split("\n") if block["text"] else []
        assert [entry["line"] for entry in block["entries"]] == lines
        assert block["totalTokens"] == tokens.count(block["text"]) <= ceiling
        order = [SECTIONS.index(entry["section"]) for entry in block["entries"]]
        assert order == sorted(order)
        index = [e for e in block["entries"] if e["section"] == "index"]
        assert len(index) <= 25
        for entry in block["entries"]:
            assert entry["tokens"] == tokens.count(entry["line"])
            memory = held.get(entry["memoryId"])
            assert memory is not None, entry  # never another organisation's
            assert memory.tier != ARCHIVE
            if entry["section"] == "triggered":
                triggered_any += 1
                assert memory.tier == WORKING
                term = re.fullmatch(r'triggered by "(.+)" \(\w+\)', entry["reason"]).group(1)
                assert term.casefold() in message.casefold()
                assert set(terms(term)) <= set(terms(memory.content))
                # As a word or phrase: "3" is not in "32".
                word = rf"(?<!\w){re.escape(term.casefold())}(?!\w)"
                assert re.search(word, " ".join(transcript.casefold().split())) is None
            elif entry["section"] == "core":
                assert memory.tier == CORE
    assert triggered_any > 20  # the corpus does exercise triggers
