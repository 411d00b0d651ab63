from __future__ import annotations

import logging

import pytest

from memory_service.extraction.candidates import (
    FACT,
    HYPOTHETICAL,
    INSTRUCTION,
    LESSON,
    PATTERN,
    PREFERENCE,
    QUESTION,
    REASONS,
    SECRET,
    SMALL_TALK,
    TOO_LONG,
    TOO_VAGUE,
    TRANSIENT,
)
from memory_service.extraction.rules import extract


def kept(message: str) -> list[str]:
    return [candidate.content for candidate in extract(message).candidates]


def reasons(message: str) -> list[tuple[str, str]]:
    return [(rejection.content, rejection.reason) for rejection in extract(message).rejected]


def test_a_question_makes_the_whole_turn_a_lookup():
    extraction = extract("Thanks! I prefer tabs, but what does PEP 8 say?")
    assert extraction.lookup
    assert extraction.candidates == []
    assert reasons("Thanks! I prefer tabs, but what does PEP 8 say?") == [
        ("Thanks!", QUESTION),
        ("I prefer tabs, but what does PEP 8 say?", QUESTION),
    ]


def test_a_question_without_its_question_mark_is_still_a_lookup():
    assert extract("Can you remind me what we decided about the deploy day").lookup


@pytest.mark.parametrize(
    "message",
    [
        "does the new kettle need descaling every month",
        "sorry to bother you but what does escrow actually cover",
        "we moved the review to friday do i need to tell the client",
        "anyone still sell film for old polaroids",
        "oat milk is fine in coffee but for baking or is it too thin",
        "my brother wants to know are the trains running on sunday",
        "remind me the name of the plumber we used last winter",
        "bus times for Leith this evening",
        "Warfarin and the new antibiotic. Pause the warfarin or carry on",
    ],
)
def test_a_question_after_the_words_that_introduce_it_is_a_lookup(message):
    assert extract(message).lookup


@pytest.mark.parametrize(
    "message",
    ["Prices in euros always, please.", "I always score at least 80 in practice rounds."],
)
def test_a_statement_opening_like_a_timetable_asks_nothing(message):
    assert not extract(message).lookup


def test_punctuation_spoken_to_a_dictation_app_ends_a_sentence():
    extraction = extract("I'm a nurse in Leeds period I mostly work nights full stop")
    assert [c.content for c in extraction.candidates] == [
        "I'm a nurse in Leeds",
        "I mostly work nights full stop",
    ]


def test_pasted_error_output_is_transient_whatever_its_case():
    message = "panic: runtime error: index out of range\n[goroutine 7 running]\nadd a bounds check"
    extraction = extract(message)
    assert extraction.candidates == []
    assert {r.reason for r in extraction.rejected} == {TRANSIENT}


def test_a_filler_is_left_out_and_a_word_that_colours_the_statement_stays():
    [candidate] = extract("btw honestly the 24mm is my favourite lens").candidates
    assert candidate.content == "honestly the 24mm is my favourite lens"


def test_one_or_two_words_before_a_colon_name_a_topic_and_stay():
    [candidate] = extract("Replies: short paragraphs, never bullet points.").candidates
    assert candidate.content == "Replies: short paragraphs, never bullet points."


@pytest.mark.parametrize(
    ("message", "statements"),
    [
        (
            "We use uv for packaging and everything runs on Fly.io.",
            ["We use uv for packaging", "everything runs on Fly.io."],
        ),
        ("I AM 81 AND I LIVE IN TOLEDO.", ["I AM 81", "I LIVE IN TOLEDO."]),
        (
            "I'm on my second album, Low Tide, and it's the hardest one yet.",
            ["I'm on my second album, Low Tide, and it's the hardest one yet."],
        ),
        ("g'day mate, im a chippy in Ballarat", ["im a chippy in Ballarat"]),
        ("I'm Priya and I teach chemistry.", ["I'm Priya", "I teach chemistry."]),
        (
            "My shop sells only vinyl, and honestly I run it alone.",
            ["My shop sells only vinyl", "I run it alone."],
        ),
        ("Marmite on crumpets is the only way, sue me.", ["Marmite on crumpets is the only way"]),
        (
            "I keep bees at the bottom of the garden full stop mostly Buckfast queens",
            ["I keep bees at the bottom of the garden", "mostly Buckfast queens"],
        ),
    ],
)
def test_statements_are_cut_where_each_would_stand_alone(message, statements):
    assert [c.content for c in extract(message).candidates] == statements


def test_a_bulleted_list_of_facts_is_read_line_by_line_and_not_as_a_paste():
    message = "Some context:\n- I'm a GP in Hull.\n- We use EMIS.\n- Clinic days are Mon and Thu."
    assert [c.content for c in extract(message).candidates] == [
        "I'm a GP in Hull.",
        "We use EMIS.",
        "Clinic days are Mon and Thu.",
    ]


def test_a_list_of_quantities_or_code_is_still_a_paste():
    message = "- 500 g flour\n- 350 g water\n- 10 g salt"
    assert extract(message).candidates == []


@pytest.mark.parametrize(
    "message",
    [
        "we moved from Trello to Asana this week.",
        "upgraded the shop laptop to Windows 11 last night",
        "Bev's down to just Mondays now.",
    ],
)
def test_a_change_with_a_date_beside_it_is_kept(message):
    assert [c.content for c in extract(message).candidates] == [message]


def test_a_trial_period_is_not_a_spoken_full_stop():
    [candidate] = extract("Our trial period is ninety days for new hires.").candidates
    assert candidate.content == "Our trial period is ninety days for new hires."


def test_a_question_mark_inside_a_url_is_not_a_question():
    extraction = extract("Our docs live at https://example.com/docs?page=2 for everyone.")
    assert not extraction.lookup


def test_a_durable_statement_is_kept_in_the_users_own_words():
    message = "I work at Acme Corp as a backend engineer."
    assert kept(message) == [message]


def test_a_kept_statement_is_an_exact_substring_of_the_message():
    message = "Hiya!  By the way,   I live in Lisbon.\nAlso, I write all my scripts in Python."
    for content in kept(message):
        assert content in message
    assert kept(message) == ["I live in Lisbon.", "I write all my scripts in Python."]


def test_greetings_and_thanks_are_small_talk():
    for message in ("Hi there!", "Thanks, that helped a lot!", "Have a good weekend!", "lol"):
        assert reasons(message) == [(message, SMALL_TALK)]


def test_small_talk_beside_a_durable_statement_is_rejected_and_the_statement_kept():
    message = "Lovely weather today. I'm vegetarian, so skip the meat recipes."
    assert kept(message) == ["I'm vegetarian, so skip the meat recipes."]
    assert reasons(message) == [("Lovely weather today.", SMALL_TALK)]


def test_a_greeting_set_off_by_a_comma_is_split_from_the_statement():
    assert kept("Thanks, I live in Lisbon.") == ["I live in Lisbon."]
    assert reasons("Thanks, I live in Lisbon.") == [("Thanks", SMALL_TALK)]


@pytest.mark.parametrize(
    "message",
    [
        "If I moved to Berlin, I'd need a German phone plan.",
        "Suppose we switched the whole backend to Rust.",
        "Maybe someday I'll learn Haskell.",
        "Assuming the merger goes through, we might move to Denver.",
        "I'd love to visit Japan one day.",
        "Were the shop to close, we would move to Leeds.",
    ],
)
def test_conditionals_and_possibilities_are_hypothetical(message):
    assert reasons(message) == [(message, HYPOTHETICAL)]


def test_even_if_inside_a_standing_instruction_is_not_hypothetical():
    message = "From now on, answer in English even if I write in Portuguese."
    assert kept(message) == [message]


@pytest.mark.parametrize(
    "message",
    [
        "I'm tired today.",
        "I'm in a meeting right now, so keep it brief.",
        "I'm at the airport at the moment.",
        "I just got back from lunch.",
        "I'm on vacation until Monday.",
        "I'm driving my sister to the station.",
    ],
)
def test_a_state_of_the_moment_is_transient(message):
    assert reasons(message) == [(message, TRANSIENT)]


def test_the_car_one_drives_these_days_is_kept():
    message = "I'm driving my uncle's 2014 Golf these days."
    assert kept(message) == [message]


@pytest.mark.parametrize(
    "message",
    ["Summarise this article for me.", "Write a haiku about autumn.", "Remind me to call mum."],
)
def test_a_request_about_the_message_at_hand_is_not_a_standing_instruction(message):
    assert reasons(message) == [(message, TRANSIENT)]


def test_a_condition_on_a_standing_instruction_is_not_hypothetical():
    [candidate] = extract("If I ask for code, use Python.").candidates
    assert candidate.kind == INSTRUCTION


@pytest.mark.parametrize(
    "message", ["I like stuff.", "Things are kind of whatever.", "I prefer the usual."]
)
def test_a_statement_without_content_is_too_vague(message):
    assert reasons(message) == [(message, TOO_VAGUE)]


def test_a_single_candidate_over_three_hundred_characters_is_too_long():
    message = "So basically " + "we changed the plan and then " * 12 + "nobody knew what shipped."
    assert len(message) > 300
    assert reasons(message) == [(message, TOO_LONG)]


def test_a_secret_is_rejected_redacted_and_the_durable_part_still_kept():
    message = "Staging DB password: Tr0ub4dor&3. I always use Docker Compose for local development."
    extraction = extract(message)
    assert kept(message) == ["I always use Docker Compose for local development."]
    assert [(r.content, r.reason) for r in extraction.rejected] == [
        ("Staging DB password: [redacted].", SECRET)
    ]


def test_a_secret_clause_is_split_from_a_durable_clause_in_one_sentence():
    message = (
        "My npm token is npm_Xa7Kq2Lm9Rt4Vw8Zb1Cd5Ef3Gh6Jk0Np2Qs, and I publish under @samdev."
    )
    assert kept(message) == ["I publish under @samdev."]
    assert reasons(message) == [("My npm token is [redacted]", SECRET)]


def test_no_rejection_ever_echoes_a_secret():
    message = (
        "AWS access key id is AKIAIOSFODNN7EXAMPLE"
        " and the secret is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY."
    )
    for content, reason in reasons(message):
        assert reason == SECRET
        assert "AKIA" not in content and "EXAMPLEKEY" not in content


def test_a_question_that_holds_a_secret_is_redacted_too():
    assert reasons("Is hunter2 a good password? My password is hunter2.")[1] == (
        "My password is [redacted].",
        QUESTION,
    )


def test_a_semicolon_keeps_a_correction_in_one_statement():
    message = "No, it's Neovim now; I switched away from VS Code."
    assert kept(message) == [message]


def test_a_second_first_person_clause_is_a_statement_of_its_own():
    message = "I prefer window seats on long flights and I fly with KLM when I can."
    assert kept(message) == ["I prefer window seats on long flights", "I fly with KLM when I can."]


def test_a_short_subject_joined_by_and_is_not_split():
    assert kept("My wife and I live in Porto.") == ["My wife and I live in Porto."]


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("I prefer tabs for indentation.", PREFERENCE),
        ("Actually I prefer dark mode.", PREFERENCE),
        ("I use VS Code for everything.", FACT),
        ("Actually, we deploy on Thursdays now.", FACT),
        ("Keep your answers short.", INSTRUCTION),
        ("Never use semicolons in my JavaScript.", INSTRUCTION),
        ("Actually, please call me Samantha.", INSTRUCTION),
        ("We never deploy on Fridays.", INSTRUCTION),
        ("Commit messages should be imperative.", INSTRUCTION),
        ("I run three times a week.", PATTERN),
        ("I usually review pull requests first thing in the morning.", PATTERN),
        ("Lesson learned: always back up the database before running migrations.", LESSON),
        ("I always book an aisle seat.", PREFERENCE),
    ],
)
def test_each_kept_statement_has_a_kind(message, kind):
    [candidate] = extract(message).candidates
    assert candidate.kind == kind


def test_each_kept_statement_has_a_subject_when_the_rules_find_one():
    [candidate] = extract(
        "Actually, my timezone is Pacific Time since I moved to Seattle."
    ).candidates
    assert candidate.subject == "timezone"


def test_every_rejection_uses_the_closed_vocabulary():
    message = "Hi! I'm tired today. If it snows we might ski. I like stuff. Password: x9Y!k2."
    assert {reason for _, reason in reasons(message)} <= set(REASONS)


def test_an_empty_message_yields_nothing():
    extraction = extract("")
    assert extraction.candidates == [] and extraction.rejected == [] and not extraction.lookup


def test_extraction_never_logs_the_message(caplog):
    with caplog.at_level(logging.DEBUG):
        extract("My password is hunter2. I live in Lisbon.")
    assert caplog.records == []
