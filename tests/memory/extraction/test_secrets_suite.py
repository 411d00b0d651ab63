"""The secrets suites: no credential kept or echoed in any form; talk about them still learned."""

from __future__ import annotations

import pytest

from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import redact
from tests.memory.labelled import BARS, SECRET_SUITES, load_secret_suite


@pytest.fixture(scope="module", params=list(SECRET_SUITES))
def suite(request: pytest.FixtureRequest) -> tuple[str, list[dict]]:
    return request.param, load_secret_suite(request.param)


def test_the_suites_are_as_large_as_promised(suite):
    name, items = suite
    credentials = [i for i in items if i["label"] == "credential"]
    adjacent = [i for i in items if i["label"] == "adjacent"]
    forms = {i["form"] for i in credentials}
    minimum = (300, 150, 40) if name == "development" else (150, 80, 30)
    assert (len(credentials), len(adjacent), len(forms)) >= minimum


def test_no_credential_is_kept_echoed_or_left_in_the_transcript(suite):
    name, items = suite
    leaks = []
    credentials = [i for i in items if i["label"] == "credential"]
    for item in credentials:
        extraction = extract(item["text"])
        texts = [c.content for c in extraction.candidates]
        texts += [r.content for r in extraction.rejected]
        texts.append(redact(item["text"]))
        if any(value in text for value in item["values"] for text in texts):
            leaks.append((item["id"], item["form"]))
    print(f"\n{name} secrets suite: credentials leaked {len(leaks)}/{len(credentials)}")
    assert len(leaks) <= BARS[name]["suite credentials leaked"], leaks


def test_statements_about_credentials_are_still_learned(suite):
    name, items = suite
    adjacent = [i for i in items if i["label"] == "adjacent"]
    lost = [i["text"] for i in adjacent if not extract(i["text"]).candidates]
    print(f"\n{name} secrets suite: adjacent statements lost {len(lost)}/{len(adjacent)}")
    assert len(lost) <= BARS[name]["suite adjacent lost"] * len(adjacent), lost
