from __future__ import annotations

import pytest

from memory_service.extraction.subjects import subject_of


@pytest.mark.parametrize(
    ("earlier", "later", "subject"),
    [
        ("I live in Lisbon.", "I live in Seattle now.", "city"),
        (
            "I prefer tabs for indentation.",
            "Actually, I prefer spaces, four of them.",
            "indentation",
        ),
        (
            "I use VS Code for everything.",
            "No, it's Neovim now; I switched away from VS Code.",
            "editor",
        ),
        ("We deploy on Tuesdays.", "Actually, we deploy on Thursdays now.", "deploy day"),
        ("I'm in Central European Time.", "I'm based in the Pacific timezone.", "timezone"),
        ("I work at Acme Corp.", "I work for Globex now.", "employer"),
        ("I'm vegetarian.", "Actually, I'm pescatarian rather than vegetarian.", "diet"),
        ("Keep your answers short.", "From now on, give me detailed answers.", "response length"),
        ("Our main database is MySQL.", "We migrated to PostgreSQL.", "database"),
        ("I prefer light mode.", "Actually I prefer dark mode.", "theme"),
        ("Use British spelling.", "Use American spelling for everything.", "spelling"),
        ("I use zsh as my shell.", "My shell is fish.", "shell"),
        ("We host everything on AWS.", "Everything runs on Google Cloud now.", "cloud provider"),
        ("Call me Sam.", "Please call me Samantha.", "name"),
        ("I write all my tools in Kotlin.", "The whole project's Go now.", "programming language"),
        ("I take the train to work.", "These days I cycle to the office.", "commute"),
        ("I drive a 2009 Yaris with 160k miles on it.", "I'm driving a used Kona now.", "car"),
        ("Me and Gwen live in Barry.", "We moved to Penarth in May.", "city"),
        ("I'm 70.", "I'm 71 now, the birthday was lovely.", "age"),
    ],
)
def test_statements_on_the_same_thing_with_different_values_share_a_subject(
    earlier, later, subject
):
    assert subject_of(earlier) == subject
    assert subject_of(later) == subject


@pytest.mark.parametrize(
    ("text", "subject"),
    [
        ("My shell is zsh.", "shell"),
        ("My favourite colour is green.", "favourite colour"),
        ("Our office is in Amsterdam.", "office"),
        ("I prefer a fountain pen for journaling.", "journaling"),
        ("I can't stand cilantro.", "cilantro"),
        ("I don't eat pork.", "pork"),
        ("Call me Sam.", "name"),
        ("Mia is my daughter; she's seven.", "daughter"),
        ("My partner's name is Jordan.", "partner"),
        ("My wife works at a hospital.", "partner"),
    ],
)
def test_pattern_rules_name_the_subject_the_lexicon_lacks(text, subject):
    assert subject_of(text) == subject


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("My advisor is Professor Lim.", "My new advisor is Professor Choi."),
        ("The 35mm is my go-to lens.", "The 50mm is my go-to lens now."),
        ("I live in Pune.", "Now I have shifted to Bangalore."),
        ("live in oslo.", "moved to bergen."),
    ],
)
def test_words_that_date_a_statement_do_not_change_its_subject(first, second):
    assert subject_of(first) == subject_of(second) is not None


def test_a_relative_with_a_personal_topic_gets_a_compound_subject():
    assert subject_of("My son Leo is allergic to cats.") == "son allergy"
    assert subject_of("I'm allergic to peanuts.") == "allergy"


def test_a_relative_is_the_subject_when_they_are_what_the_statement_is_about():
    assert subject_of("My son Leo plays football on Saturdays.") == "son"
    assert subject_of("I usually visit my parents twice a year.") == "family visits"


def test_a_pet_is_a_pet_whatever_the_animal():
    assert subject_of("I have a dog named Biscuit.") == "pet"
    assert subject_of("Biscuit is my dog, a beagle.") == "pet"


def test_narrow_subjects_win_over_the_broad_ones_they_contain():
    assert subject_of("We never deploy on Fridays.") == "deploy freeze"
    assert subject_of("Always back up the database before running migrations.") == "migrations"
    assert subject_of("The frontend is written in TypeScript with React.") == "frontend stack"


def test_a_style_rule_is_named_after_its_language():
    assert subject_of("Never use semicolons in my JavaScript.") == "javascript style"
    assert subject_of("Use snake_case for Python variables.") == "python style"


def test_a_drink_at_a_time_of_day_is_one_subject_whatever_the_drink():
    assert subject_of("I drink green tea in the afternoon.") == "afternoon drink"
    assert subject_of("I have coffee in the afternoon.") == "afternoon drink"


def test_a_subject_is_short_and_lowercase():
    subject = subject_of("My GitHub Username is SamDev.")
    assert subject == subject.lower()
    assert len(subject.split()) <= 3


def test_a_statement_about_nothing_in_particular_has_no_subject():
    assert subject_of("It went fine.") is None
