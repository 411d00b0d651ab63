from __future__ import annotations

from memory_service.recall.text import MAX_TERM_LENGTH, STOP_WORDS, query_words, stem, terms


def test_terms_are_lowercased_stemmed_and_kept_in_order_with_repeats():
    assert terms("Deploys DEPLOYING deployed") == ["deploy", "deploy", "deploy"]


def test_stop_words_are_dropped():
    assert terms("When do we deploy to the cluster?") == ["deploy", "cluster"]


def test_a_text_of_stop_words_alone_has_no_terms():
    assert terms("what is it that you have been doing") == []


def test_identifiers_and_numbers_are_kept_and_split_on_punctuation():
    assert terms("k8s in eu-west-1, port 5432") == ["k8s", "eu", "west", "1", "port", "5432"]


def test_contractions_leave_no_fragments():
    assert terms("The user's team doesn't deploy") == ["user", "team", "deploy"]


def test_every_stop_word_is_a_lowercase_word_without_apostrophe():
    assert all(word.isalpha() and word == word.lower() for word in STOP_WORDS)
    assert {"the", "and", "which", "does", "we"} <= STOP_WORDS


def test_a_very_long_word_is_cut_to_the_column_width():
    (term,) = terms("x" * 200)
    assert term == "x" * MAX_TERM_LENGTH


def test_stems_are_memoised():
    stem.cache_clear()
    stem("reviewing")
    stem("reviewing")
    assert stem.cache_info().hits == 1


def test_query_words_map_each_term_to_the_first_word_as_written():
    assert query_words("Deploying on FRIDAY, deploys friday") == {
        "deploy": "Deploying",
        "friday": "FRIDAY",
    }


def test_query_words_of_stop_words_alone_are_empty():
    assert query_words("which of these is it") == {}
