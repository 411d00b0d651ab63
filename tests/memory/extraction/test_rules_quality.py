"""Score the rules extractor on the labelled development and held-out sets (tests/data/README.md).

The development set holds the issue's targets; the held-out set, which the rules are never tuned
on, holds the figures it measured (``BARS``). ``pytest -s`` prints both sets' figures.
"""

from __future__ import annotations

import pytest

from memory_service.extraction.candidates import SECRET
from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import contains_secret
from tests.memory.labelled import BARS, PRECISION_GAP, SETS, Score, load_turns


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
def scored(request: pytest.FixtureRequest, scores: dict[str, Score]) -> tuple[Score, dict]:
    return scores[request.param], BARS[request.param]


def test_what_is_stored_is_what_a_person_labelled_durable(scored):
    score, bars = scored
    assert score.precision >= bars["precision"], score.wrongly_stored[:20]


def test_most_durable_statements_are_stored(scored):
    score, bars = scored
    assert score.recall >= bars["recall"], score.missed[:20]


def test_messages_that_ask_something_are_lookups(scored):
    score, bars = scored
    assert score.lookup_rate >= bars["lookups"], score.missed_lookups


def test_chatter_turns_store_nothing(scored):
    score, bars = scored
    assert score.chatter_rate >= bars["chatter"]


def test_the_sets_agree_on_precision(scores):
    gap = abs(scores["development"].precision - scores["held-out"].precision)
    print(f"\nprecision gap between the sets: {gap:.3f}")
    assert gap <= PRECISION_GAP


@pytest.mark.parametrize("name", list(SETS))
def test_labelled_credentials_are_never_kept_nor_echoed(name):
    kept, echoed = [], []
    for turn in load_turns(name):
        extraction = extract(turn["userMessage"])
        secrets = [i["content"] for i in turn["expected"]["rejected"] if i["reason"] == SECRET]
        for candidate in extraction.candidates:
            if contains_secret(candidate.content) or any(
                candidate.content in s or s in candidate.content for s in secrets
            ):
                kept.append(turn["id"])
        echoed += [turn["id"] for r in extraction.rejected if contains_secret(r.content)]
    print(f"\n{name}: turns keeping a credential {kept}, echoing one {echoed}")
    assert len(kept) <= BARS[name]["credentials kept"], kept
    assert len(echoed) <= BARS[name]["credentials echoed"], echoed
