"""POST /v1/self-model/outcome: counting outcomes, accumulating failure patterns and strategies."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_service.selfmodel.models import MAX_NOTES_PER_KIND, Domain, Note
from memory_service.selfmodel.services import outcome_record
from tests.memory.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/self-model/outcome"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_a_first_failure_reads_0_533_and_not_zero(api, org):
    answer = api.post(URL, {"domain": "deploys", "success": False})
    assert answer.status_code == 200
    body = answer.json()
    assert list(body) == [
        "domain", "reliabilityScore", "samples", "successes", "failures",
        "failurePatterns", "strategies", "updatedAt",
    ]  # fmt: skip
    assert body["domain"] == "deploys"
    assert body["reliabilityScore"] == 0.533
    assert (body["samples"], body["successes"], body["failures"]) == (1, 0, 1)
    assert body["failurePatterns"] == body["strategies"] == []
    assert body["updatedAt"].endswith("Z")


def test_a_first_success_reads_0_867(api, org):
    body = api.post(URL, {"domain": "deploys", "success": True}).json()
    assert body["reliabilityScore"] == 0.867
    assert (body["samples"], body["successes"], body["failures"]) == (1, 1, 0)


def test_outcomes_move_the_score_as_a_moving_average_with_a_prior_of_two(api, org):
    for success in (True, False, True, True):
        body = api.post(URL, {"domain": "deploys", "success": success}).json()
    # (1.6 + 3) / (2 + 4)
    assert body["reliabilityScore"] == 0.767
    assert (body["samples"], body["successes"], body["failures"]) == (4, 3, 1)


def test_a_failure_pattern_makes_it_a_failure_whatever_success_says(api, org):
    body = api.post(
        URL, {"domain": "deploys", "success": True, "failurePattern": "forgot the migration"}
    ).json()
    assert (body["successes"], body["failures"]) == (0, 1)
    assert body["failurePatterns"][0]["text"] == "forgot the migration"


def test_a_blank_failure_pattern_is_absent_and_leaves_a_success(api, org):
    body = api.post(
        URL, {"domain": "deploys", "success": True, "failurePattern": "  ", "strategy": ""}
    ).json()
    assert (body["successes"], body["failures"]) == (1, 0)
    assert body["failurePatterns"] == body["strategies"] == []
    assert not Note.objects.exists()


def test_a_strategy_is_kept_on_a_success(api, org):
    body = api.post(
        URL, {"domain": "deploys", "success": True, "strategy": "run the checks first"}
    ).json()
    assert (body["successes"], body["failures"]) == (1, 0)
    [strategy] = body["strategies"]
    assert (strategy["text"], strategy["count"]) == ("run the checks first", 1)
    assert set(strategy) == {"text", "count", "lastSeenAt"}


def test_the_same_pattern_again_raises_its_count_and_last_seen_time(org):
    for hours, text in enumerate(["Forgot the  migration", "forgot the migration", "ran it twice"]):
        outcome_record(
            org=org, domain="deploys", success=False, failure_pattern=text,
            now=T0 + timedelta(hours=hours),
        )  # fmt: skip
    outcome_record(
        org=org, domain="Deploys", success=False, failure_pattern="FORGOT the migration",
        now=T0 + timedelta(hours=5),
    )  # fmt: skip
    domain = Domain.objects.get()
    patterns = [(n.text, n.count, n.first_seen_at, n.last_seen_at) for n in domain.notes.all()]
    assert patterns == [
        # The first wording is kept; the latest seen comes first.
        ("Forgot the migration", 3, T0, T0 + timedelta(hours=5)),
        ("ran it twice", 1, T0 + timedelta(hours=2), T0 + timedelta(hours=2)),
    ]
    assert domain.failures == 4


def test_patterns_and_strategies_are_listed_most_recently_seen_first(api, org):
    api.post(URL, {"domain": "deploys", "success": False, "failurePattern": "one"})
    api.post(URL, {"domain": "deploys", "success": False, "failurePattern": "two"})
    body = api.post(URL, {"domain": "deploys", "success": False, "failurePattern": "ONE"}).json()
    assert [(p["text"], p["count"]) for p in body["failurePatterns"]] == [("one", 2), ("two", 1)]


def test_domain_names_differing_in_case_and_spaces_are_one_domain(api, org):
    api.post(URL, {"domain": "Deploys", "success": True})
    api.post(URL, {"domain": "  deploys ", "success": False})
    body = api.post(URL, {"domain": "DEPLOYS", "success": False}).json()
    assert body["domain"] == "Deploys"  # as first given
    assert (body["successes"], body["failures"]) == (1, 2)
    assert Domain.objects.for_org(org).count() == 1


def test_the_name_is_trimmed_as_first_given(api, org):
    assert api.post(URL, {"domain": "  Code review\n", "success": True}).json()["domain"] == (
        "Code review"
    )


@pytest.mark.parametrize("field", ["failurePattern", "strategy"])
def test_each_kind_keeps_only_the_twenty_most_recently_seen(org, field):
    argument = {"failurePattern": "failure_pattern", "strategy": "strategy"}[field]
    for n in range(MAX_NOTES_PER_KIND):
        outcome_record(
            org=org, domain="deploys", success=False, now=T0 + timedelta(minutes=n),
            **{argument: f"note {n}"},
        )  # fmt: skip
    # Seeing the oldest again makes note 1 the least recently seen.
    outcome_record(
        org=org, domain="deploys", success=False, now=T0 + timedelta(minutes=30),
        **{argument: "note 0"},
    )  # fmt: skip
    outcome_record(
        org=org, domain="deploys", success=False, now=T0 + timedelta(minutes=31),
        **{argument: "note 20"},
    )  # fmt: skip
    held = set(Note.objects.filter(kind=argument).values_list("text", flat=True))
    assert len(held) == MAX_NOTES_PER_KIND
    assert "note 1" not in held and {"note 0", "note 20", "note 2"} <= held


def test_the_cap_counts_each_kind_on_its_own(org):
    for n in range(MAX_NOTES_PER_KIND + 3):
        outcome_record(
            org=org, domain="deploys", success=False, failure_pattern=f"pattern {n}",
            strategy=f"strategy {n}", now=T0 + timedelta(minutes=n),
        )  # fmt: skip
    assert Note.objects.filter(kind="failure_pattern").count() == MAX_NOTES_PER_KIND
    assert Note.objects.filter(kind="strategy").count() == MAX_NOTES_PER_KIND


def test_a_credential_in_a_pattern_is_never_stored_or_echoed(api, org):
    answer = api.post(
        URL,
        {
            "domain": "support",
            "success": False,
            "failurePattern": "pasted password Kite-Fern-4410 into the chat",
            "strategy": "use the vault; the staging db password: s3cr3t-Ox!",
        },
    )
    assert answer.status_code == 200
    assert "Kite-Fern-4410" not in answer.content.decode()
    assert "s3cr3t-Ox" not in answer.content.decode()
    body = answer.json()
    assert body["failurePatterns"][0]["text"] == "pasted password [redacted] into the chat"
    assert "[redacted]" in body["strategies"][0]["text"]
    stored = " ".join(Note.objects.values_list("text", flat=True))
    assert "Kite-Fern-4410" not in stored and "s3cr3t-Ox" not in stored
    listed = api.get("/api/v1/self-model").content.decode()
    assert "Kite-Fern-4410" not in listed


def test_a_credential_in_the_domain_name_is_redacted_too(api, org):
    body = api.post(URL, {"domain": "db password is Kite-Fern-4410", "success": True}).json()
    assert "Kite-Fern-4410" not in body["domain"]
    assert not Domain.objects.filter(name__contains="Kite-Fern-4410").exists()


def test_line_breaks_in_a_pattern_are_folded_into_one_line(api, org):
    body = api.post(
        URL, {"domain": "deploys", "success": False, "failurePattern": "forgot\n\tthe  migration"}
    ).json()
    assert body["failurePatterns"][0]["text"] == "forgot the migration"


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"success": True}, "domain"),
        ({"domain": "", "success": True}, "domain"),
        ({"domain": "   ", "success": True}, "domain"),
        ({"domain": "x" * 101, "success": True}, "domain"),
        ({"domain": 7, "success": True}, "domain"),
        ({"domain": "de\x00ploys", "success": True}, "domain"),
        ({"domain": "de\nploys", "success": True}, "domain"),
        ({"domain": "de\x1bploys", "success": True}, "domain"),
        ({"domain": "deploys"}, "success"),
        ({"domain": "deploys", "success": "true"}, "success"),
        ({"domain": "deploys", "success": 1}, "success"),
        ({"domain": "deploys", "success": 0}, "success"),
        ({"domain": "deploys", "success": None}, "success"),
        ({"domain": "deploys", "success": False, "failurePattern": 3}, "failurePattern"),
        ({"domain": "deploys", "success": False, "failurePattern": ["a"]}, "failurePattern"),
        ({"domain": "deploys", "success": False, "failurePattern": None}, "failurePattern"),
        ({"domain": "deploys", "success": False, "failurePattern": "x" * 501}, "failurePattern"),
        ({"domain": "deploys", "success": False, "failurePattern": "a\x07b"}, "failurePattern"),
        ({"domain": "deploys", "success": True, "strategy": False}, "strategy"),
        ({"domain": "deploys", "success": True, "strategy": "x" * 501}, "strategy"),
        ({"domain": "deploys", "success": True, "note": "hm"}, "note"),
        ({"domain": "deploys", "success": True, "Strategy": "x"}, "Strategy"),
        ([{"domain": "deploys", "success": True}], ""),
        ("deploys", ""),
    ],
)
def test_a_bad_outcome_is_invalid_request_naming_the_field(api, org, body, path):
    answer = api.post(URL, body, format="json")
    assert answer.status_code == 400, answer.json()
    assert answer.json()["error"] == "InvalidRequest"
    assert path in [issue["path"] for issue in answer.json()["issues"]]
    assert not Domain.objects.exists()


def test_a_body_that_is_not_json_is_invalid_request(api, org):
    answer = api.post(URL, "{not json", content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "InvalidRequest"


def test_the_longest_values_are_accepted(api, org):
    body = {"domain": "d" * 100, "success": False, "failurePattern": "p" * 500}
    answer = api.post(URL, body)
    assert answer.status_code == 200
    assert answer.json()["failurePatterns"][0]["text"] == "p" * 500


def test_recording_needs_memories_write(client_for, org):
    key = ApiKeyFactory(organisation=org, scopes=["memories:read", "stats:read"])
    answer = client_for(key).post(URL, {"domain": "deploys", "success": True})
    assert answer.status_code == 403
    assert answer.json()["error"] == "Forbidden"
    assert answer.json()["requiredScope"] == "memories:write"
    assert "memories:write" in answer.json()["message"]
    assert not Domain.objects.exists()


def test_recording_without_a_key_is_unauthorized(client_for, org):
    answer = client_for(None).post(URL, {"domain": "deploys", "success": True})
    assert answer.status_code == 401 and answer.json()["error"] == "Unauthorized"


def test_get_is_not_routed_on_the_outcome_path(api, org):
    answer = api.get(URL)
    assert answer.status_code == 400 and answer.json()["error"] == "InvalidRequest"


def test_organisations_keep_separate_domains_of_the_same_name(api, org, other_org, client_for):
    other = client_for(ApiKeyFactory(organisation=other_org))
    api.post(URL, {"domain": "deploys", "success": True, "strategy": "ours"})
    body = other.post(URL, {"domain": "deploys", "success": False}).json()
    assert (body["successes"], body["failures"], body["strategies"]) == (0, 1, [])
    assert Domain.objects.count() == 2
