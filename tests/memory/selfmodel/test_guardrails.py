"""The guardrails and weak domains the context block and the stats read from the self-model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory_service.selfmodel.guardrails import Guardrail, guardrails
from memory_service.selfmodel.listing import weak_domains
from memory_service.selfmodel.services import outcome_record
from tests.memory.selfmodel.factories import DomainFactory, NoteFactory

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def record(org, domain: str, success: bool, minutes: int = 0, **notes: str) -> None:
    outcome_record(
        org=org, domain=domain, success=success, now=T0 + timedelta(minutes=minutes), **notes
    )


def test_a_weak_domain_gets_a_line_with_its_latest_patterns_and_strategies(org):
    record(org, "deploys", False, 0, failure_pattern="forgot the migration.")
    record(
        org, "deploys", False, 1, failure_pattern="ran it twice", strategy="run the checks first"
    )
    assert guardrails(org=org, message="hello there") == [
        Guardrail(
            domain="deploys",
            line="deploys: reliability 0.40 over 2 outcomes. Avoid: ran it twice; "
            "forgot the migration. Try: run the checks first.",
            reason="weak domain: reliability 0.40 is below 0.6",
        )
    ]


def test_a_weak_domain_without_notes_still_gets_its_reliability(org):
    record(org, "deploys", False)
    [rail] = guardrails(org=org, message="")
    assert rail.line == "deploys: reliability 0.53 over 1 outcome."
    assert rail.reason == "weak domain: reliability 0.53 is below 0.6"


def test_a_line_shows_only_the_three_latest_of_each_kind(org):
    for n in range(5):
        record(org, "deploys", False, n, failure_pattern=f"p{n}", strategy=f"s{n}")
    [rail] = guardrails(org=org, message="")
    assert "Avoid: p4; p3; p2. Try: s4; s3; s2." in rail.line


def test_a_healthy_domain_named_by_the_message_is_a_guardrail(org):
    record(org, "Deploys", True, strategy="run the checks first")
    [rail] = guardrails(org=org, message="I'm deploying the API now")
    assert rail == Guardrail(
        domain="Deploys",
        line="Deploys: reliability 0.86 over 1 outcome. Try: run the checks first.",
        reason="named in the message: Deploys",
    )


def test_every_term_of_the_name_must_be_in_the_message(org):
    record(org, "database migrations", True, strategy="take a backup first")
    assert guardrails(org=org, message="the database is slow") == []
    assert [r.domain for r in guardrails(org=org, message="Migrating the database")] == [
        "database migrations"
    ]


def test_a_healthy_domain_that_is_not_named_is_left_out(org):
    record(org, "billing", True, strategy="check the currency")
    assert guardrails(org=org, message="I'm deploying the API") == []


def test_a_named_domain_without_notes_is_left_out(org):
    record(org, "deploys", True)
    assert guardrails(org=org, message="deploying now") == []


def test_a_name_of_stop_words_only_is_named_by_no_message(org):
    record(org, "The", True, strategy="whatever")
    assert guardrails(org=org, message="the the the") == []


def test_weak_domains_come_first_weakest_first_then_named_ones_by_key(org):
    record(org, "support", False)  # 0.533
    record(org, "billing", False)
    record(org, "billing", False)  # 0.4
    record(org, "testing", True, strategy="run the flaky test twice")
    record(org, "deploys", True, strategy="run the checks first")
    record(org, "billing", False, failure_pattern="wrong currency")  # 0.32
    rails = guardrails(org=org, message="testing the deploys")
    assert [(r.domain, r.reason.split(":")[0]) for r in rails] == [
        ("billing", "weak domain"),
        ("support", "weak domain"),
        ("deploys", "named in the message"),
        ("testing", "named in the message"),
    ]


def test_a_domain_both_weak_and_named_appears_once_as_weak(org):
    record(org, "deploys", False, failure_pattern="forgot the migration")
    rails = guardrails(org=org, message="deploying")
    assert len(rails) == 1 and rails[0].reason.startswith("weak domain")


def test_most_caps_the_guardrails_weak_ones_first(org):
    for name in ["alpha", "beta", "gamma"]:
        record(org, name, False)
    record(org, "deploys", True, strategy="run the checks first")
    assert [r.domain for r in guardrails(org=org, message="deploys", limit=2)] == ["alpha", "beta"]
    assert [r.domain for r in guardrails(org=org, message="deploys", limit=4)][-1] == "deploys"
    assert guardrails(org=org, message="deploys", limit=0) == []


def test_most_caps_named_domains_too(org):
    for name in ["api deploys", "deploys", "staging deploys"]:
        record(org, name, True, strategy="check")
    rails = guardrails(org=org, message="staging api deploys", limit=2)
    assert [r.domain for r in rails] == ["api deploys", "deploys"]


def test_every_line_is_a_single_line(org):
    record(org, "deploys", False, failure_pattern="forgot\nthe\r\nmigration", strategy="a\tb")
    [rail] = guardrails(org=org, message="")
    assert "\n" not in rail.line and "\r" not in rail.line and "\t" not in rail.line


def test_another_organisations_domains_give_no_guardrails(org, other_org):
    record(other_org, "deploys", False, failure_pattern="forgot the migration")
    assert guardrails(org=org, message="deploys") == []
    assert weak_domains(org=org) == []


def test_guardrails_take_a_few_queries_whatever_the_number_of_domains(org):
    for n in range(300):
        domain = DomainFactory(organisation=org, name=f"area {n}", failures=n % 3, successes=1)
        NoteFactory(domain=domain)
    with CaptureQueriesContext(connection) as captured:
        rails = guardrails(org=org, message="every area 7 and area 12")
    assert len(captured) <= 4
    assert len(rails) == 10
    assert all(r.reason.startswith("weak domain") for r in rails)  # 100 weak ones fill the cap
    with CaptureQueriesContext(connection) as captured:
        rails = guardrails(org=org, message="area 12 and area 13", limit=150)
    assert len(captured) <= 4
    assert len(rails) == 102  # 100 weak ones (n % 3 == 2), then "area 12" and "area 13" by key


def test_weak_domains_are_lowest_reliability_first_then_by_key(org):
    DomainFactory(organisation=org, name="b", failures=1)  # 0.533
    DomainFactory(organisation=org, name="a", successes=8, failures=8)  # 9.6 / 18 = 0.533
    DomainFactory(organisation=org, name="c", failures=2)  # 0.4
    DomainFactory(organisation=org, name="ok", successes=1, failures=1)  # 0.65
    DomainFactory(organisation=org, name="new")  # no outcomes: 0.8
    assert [d.name for d in weak_domains(org=org)] == ["c", "a", "b"]
    assert [d.name for d in weak_domains(org=org, limit=2)] == ["c", "a"]
    assert weak_domains(org=org, limit=0) == []


def test_weak_domains_come_with_their_notes(org):
    domain = DomainFactory(organisation=org, failures=1)
    NoteFactory(domain=domain, text="forgot the migration")
    [weak] = weak_domains(org=org)
    with CaptureQueriesContext(connection) as captured:
        assert [note.text for note in weak.notes.all()] == ["forgot the migration"]
    assert len(captured) == 0
