"""Score the rules extractor on the labelled turns exactly as tests/data/README.md defines it."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from memory_service.extraction.candidates import SECRET
from memory_service.extraction.rules import extract
from memory_service.extraction.secrets import contains_secret, redact

DATA = Path(__file__).resolve().parents[2] / "data"
# The labelled set the rules were developed on, and a held-out set written without seeing them.
SETS = ["turns.jsonl", "holdout/turns.jsonl"]
_PUNCTUATION = re.compile(r"[^\w\s]")
_BLANKS = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Lowercase, drop every character that is neither a word character nor a blank, squeeze."""
    return _BLANKS.sub(" ", _PUNCTUATION.sub("", text.lower())).strip()


@dataclass
class Score:
    stored: int = 0
    expected: int = 0
    correct: int = 0
    kinds: int = 0
    subjects: int = 0
    rejections: int = 0
    reasons: int = 0
    stored_secrets: list[str] = field(default_factory=list)
    missed_secrets: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.stored if self.stored else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0


def _score_turn(turn: dict, score: Score) -> None:
    extraction = extract(turn["userMessage"])
    expected = list(turn["expected"]["stored"])
    score.stored += len(extraction.candidates)
    score.expected += len(expected)
    for candidate in extraction.candidates:
        if contains_secret(candidate.content):
            score.stored_secrets.append(turn["id"])
        match = next(
            (e for e in expected if normalise(e["content"]) == normalise(candidate.content)), None
        )
        if match is None:
            continue
        expected.remove(match)  # each expected statement can be matched once
        score.correct += 1
        score.kinds += match["kind"] == candidate.kind
        score.subjects += match["subject"] == candidate.subject
    # Rejected contents are compared redacted: the extractor never echoes a secret back.
    rejected = [(normalise(r.content), r.reason) for r in extraction.rejected]
    for item in turn["expected"]["rejected"]:
        score.rejections += 1
        wanted = (normalise(redact(item["content"])), item["reason"])
        score.reasons += wanted in rejected
        if item["reason"] == SECRET and wanted not in rejected:
            score.missed_secrets.append(turn["id"])


@pytest.fixture(scope="module", params=SETS)
def score(request: pytest.FixtureRequest) -> Score:
    result = Score()
    with (DATA / request.param).open(encoding="utf-8") as lines:
        for line in lines:
            _score_turn(json.loads(line), result)
    print(
        f"\n{request.param}: extractor precision {result.precision:.3f} recall {result.recall:.3f}"
        f" ({result.correct}/{result.stored} stored, {result.expected} expected);"
        f" reason agreement {result.reasons / result.rejections:.3f};"
        f" kind agreement {result.kinds / result.correct:.3f};"
        f" subject agreement {result.subjects / result.correct:.3f}"
    )
    return result


def test_the_extractor_is_precise_on_the_labelled_turns(score):
    assert score.precision >= 0.9


def test_the_extractor_finds_most_durable_statements_in_the_labelled_turns(score):
    assert score.recall >= 0.8


def test_no_kept_statement_holds_a_secret(score):
    assert score.stored_secrets == []


def test_every_labelled_secret_is_rejected_as_a_secret(score):
    assert score.missed_secrets == []
