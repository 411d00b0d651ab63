"""Score the rules extractor on the labelled development and held-out sets (tests/data/README.md).

The targets hold on both sets; the held-out set is measured, never tuned on.
"""

from __future__ import annotations

import pytest

from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import contains_secret
from tests.memory.labelled import SETS, Score, load_turns


def _score(name: str) -> Score:
    score = Score()
    for turn in load_turns(name):
        extraction = extract(turn["userMessage"])
        score.add(
            turn,
            stored=[(c.content, c.kind) for c in extraction.candidates],
            rejected=[(r.content, r.reason) for r in extraction.rejected],
            lookup=extraction.lookup,
        )
    return score


@pytest.fixture(scope="module")
def scores() -> dict[str, Score]:
    result = {name: _score(name) for name in SETS}
    for name, score in result.items():
        print("\n" + score.report(name))
    return result


@pytest.fixture(scope="module", params=list(SETS))
def score(request: pytest.FixtureRequest, scores: dict[str, Score]) -> Score:
    return scores[request.param]


def test_what_is_stored_is_what_a_person_labelled_durable(score):
    assert score.precision >= 0.92, score.wrongly_stored[:20]


def test_most_durable_statements_are_stored(score):
    assert score.recall >= 0.85, score.missed[:20]


def test_every_message_that_asks_something_is_a_lookup(score):
    assert score.missed_lookups == []


def test_chatter_turns_store_nothing(score):
    assert score.chatter_rate >= 0.95


def test_the_sets_agree_on_precision(scores):
    development, held_out = scores["development"], scores["held-out"]
    assert abs(development.precision - held_out.precision) <= 0.05


@pytest.mark.parametrize("name", list(SETS))
def test_no_kept_or_echoed_statement_holds_a_labelled_secret(name):
    for turn in load_turns(name):
        extraction = extract(turn["userMessage"])
        shown = [c.content for c in extraction.candidates] + [r.content for r in extraction.rejected]
        assert not [text for text in shown if contains_secret(text)], turn["id"]
        secrets = [i["content"] for i in turn["expected"]["rejected"] if i["reason"] == "secret"]
        kept = [c.content for c in extraction.candidates]
        assert not [s for s in secrets if any(k in s or s in k for k in kept)], turn["id"]
