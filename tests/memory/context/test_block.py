"""The parts of the block that need no database: the tokenizer, the layout, concrete terms."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from memory_service.context import tokens
from memory_service.context.block import CORE, INDEX, TRIGGERED, Line, assemble, one_line
from memory_service.context.triggers import IDENTIFIER, NAME, NUMBER, PATH, QUOTED, concrete_terms

# The tokenizer


def test_the_shipped_vocabulary_is_cl100k_base():
    # Token ids published for cl100k_base (tiktoken's README and OpenAI's cookbook).
    assert tokens.encoding().encode("hello world") == [15339, 1917]
    assert tokens.encoding().encode("tiktoken is great!") == [83, 1609, 5963, 374, 2294, 0]
    assert tokens.encoding().n_vocab == 100277


def test_special_token_spellings_count_as_plain_text():
    assert tokens.count("<|endoftext|>") == 7


def test_a_vocabulary_that_is_not_cl100k_base_is_refused(tmp_path, monkeypatch):
    altered = tmp_path / "cl100k_base.tiktoken"
    altered.write_bytes(tokens.VOCABULARY.read_bytes().replace(b" 0\n", b" 1\n", 1))
    monkeypatch.setattr(tokens, "VOCABULARY", altered)
    tokens.encoding.cache_clear()
    try:
        with pytest.raises(ImproperlyConfigured, match="SHA-256"):
            tokens.encoding()
    finally:
        monkeypatch.undo()
        tokens.encoding.cache_clear()
    assert tokens.count("hello world") == 2


# The layout


def lines(*texts: str, section: str = CORE) -> list[Line]:
    return [Line(text, section, "why", memory_id=f"mem_{n}") for n, text in enumerate(texts)]


def test_lines_go_in_whole_until_one_does_not_fit_and_nothing_after_it_does():
    items = lines("A fairly long first line of the block.", "Second.", "Third one.")
    first = tokens.count(items[0].text)
    block = assemble(items, ceiling=first + 1)
    assert [e.line for e in block.entries] == [items[0].text]
    assert block.truncated and block.total_tokens == first
    # "Second." alone would fit after the cut line; a lower line never outlives a higher one.
    block = assemble([items[1], items[0], items[2]], ceiling=tokens.count("Second.") + 3)
    assert [e.line for e in block.entries] == ["Second."]


def test_everything_that_fits_is_not_truncated_and_counts_exactly():
    items = lines("One.", "Two, and:", "(three)", section=INDEX)
    block = assemble(items, ceiling=2000)
    assert not block.truncated
    assert block.text == "One.\nTwo, and:\n(three)"
    assert block.total_tokens == tokens.count(block.text)
    assert [e.tokens for e in block.entries] == [tokens.count(i.text) for i in items]


def test_a_memory_of_several_lines_is_one_line_of_the_block():
    (entry,) = assemble(lines("first\r\nsecond\u2028third\t fourth  "), ceiling=100).entries
    assert entry.line == "first second third fourth"


def test_blank_lines_take_no_room():
    block = assemble([*lines(" \n\t "), *lines("Kept.", section=TRIGGERED)], ceiling=100)
    assert [e.line for e in block.entries] == ["Kept."]


def test_lines_are_read_only_as_far_as_the_ceiling():
    read = []

    def produce():
        for n in range(100):
            read.append(n)
            yield Line(f"Line number {n} of many.", CORE, "why")

    assemble(produce(), ceiling=20)
    assert len(read) < 10


@pytest.mark.parametrize("ceiling", range(0, 60, 3))
def test_the_block_never_exceeds_its_ceiling(ceiling):
    items = lines(*(f"Line {n}: punctuation ends it{'.!?;:)'[n % 6]}" for n in range(12)))
    block = assemble(items, ceiling=ceiling)
    assert block.total_tokens == tokens.count(block.text) <= ceiling


def test_one_line_squeezes_whitespace():
    assert one_line("  a \n\n b\tc ") == "a b c"


# Concrete terms


def kinds(message: str) -> list[tuple[str, str]]:
    return [(term.text, term.kind) for term in concrete_terms(message)]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("open src/app/main.py now", [("src/app/main.py", PATH)]),
        ("see https://example.com/a?b=1.", [("https://example.com/a?b=1", PATH)]),
        ("deploy to eu-west-1", [("eu-west-1", IDENTIFIER)]),
        ("user svc_ops logs in", [("svc_ops", IDENTIFIER)]),
        ("call getUserName twice", [("getUserName", IDENTIFIER)]),
        ("the AWS bill", [("AWS", IDENTIFIER)]),
        ("ticket #4411 and @kofi", [("#4411", IDENTIFIER), ("@kofi", IDENTIFIER)]),
        ("at 10:30 or 3.5 or 1,000", [("10:30", NUMBER), ("3.5", NUMBER), ("1,000", NUMBER)]),
        ('is "blue harbour" done', [("blue harbour", QUOTED)]),
        ("is \u201cblue harbour\u201d done", [("blue harbour", QUOTED)]),
        ("run `make test` first", [("make test", QUOTED)]),
        ("then ask Maria Lopez.", [("Maria Lopez", NAME)]),
        ("Tell Kofi, then Ana", [("Kofi", NAME), ("Ana", NAME)]),
        ("so Ana's plan", [("Ana", NAME)]),
    ],
)
def test_concrete_terms_are_known_by_their_shape(message, expected):
    assert kinds(message) == expected


@pytest.mark.parametrize(
    "message",
    [
        "",
        "what about the thing we discussed",
        "Deploy it today.",  # a capital opening a sentence
        "and then I'm off. They've left.",  # pronouns, capitalised or not
        "The, This. It!",  # capitalised stop words
    ],
)
def test_ordinary_words_are_not_concrete(message):
    assert kinds(message) == []


def test_a_term_named_twice_is_one_term_and_a_long_message_gives_a_bounded_list():
    assert kinds("Ask Kofi and Kofi and KOFI") == [("Kofi", NAME)]
    assert len(concrete_terms(" ".join(f"id_{n}" for n in range(10_000)))) == 50
