"""GET /v1/self-model: every domain in key order, paginated, filtered, and only the caller's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory_service.selfmodel.services import outcome_record
from tests.memory.factories import ApiKeyFactory
from tests.memory.selfmodel.factories import DomainFactory, NoteFactory

pytestmark = pytest.mark.django_db

URL = "/api/v1/self-model"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_an_organisation_without_outcomes_has_no_domains(api, org):
    answer = api.get(URL)
    assert answer.status_code == 200
    assert answer.json() == {"domains": [], "nextCursor": None}


NINE = "2026-03-02T09:00:00.000Z"


def test_each_domain_shows_its_record(api, org):
    outcome_record(
        org=org, domain="Deploys", success=False, failure_pattern="forgot the migration",
        strategy="run the checks first", now=T0,
    )  # fmt: skip
    outcome_record(org=org, domain="deploys", success=True, now=T0 + timedelta(hours=1))
    assert api.get(URL).json() == {
        "domains": [
            {
                "domain": "Deploys",
                "reliabilityScore": 0.65,
                "samples": 2,
                "successes": 1,
                "failures": 1,
                "failurePatterns": [
                    {"text": "forgot the migration", "count": 1, "lastSeenAt": NINE}
                ],
                "strategies": [
                    {"text": "run the checks first", "count": 1, "lastSeenAt": NINE}
                ],
                "updatedAt": "2026-03-02T10:00:00.000Z",
            }
        ],
        "nextCursor": None,
    }  # fmt: skip


def test_domains_are_listed_in_key_order_whatever_the_case_of_their_names(api, org):
    for name in ["testing", "Billing", "deploys", "API design"]:
        DomainFactory(organisation=org, name=name)
    names = [d["domain"] for d in api.get(URL).json()["domains"]]
    assert names == ["API design", "Billing", "deploys", "testing"]


def test_the_cursor_walks_every_domain_once(api, org):
    made = {DomainFactory(organisation=org).name for _ in range(7)}
    seen, cursor, pages = [], None, 0
    while True:
        body = api.get(URL, {"limit": 3, **({"cursor": cursor} if cursor else {})}).json()
        seen += [d["domain"] for d in body["domains"]]
        cursor, pages = body["nextCursor"], pages + 1
        if cursor is None:
            break
    assert pages == 3 and len(seen) == 7 and set(seen) == made
    assert seen == sorted(seen)


def test_the_default_page_is_fifty(api, org):
    for _ in range(51):
        DomainFactory(organisation=org)
    body = api.get(URL).json()
    assert len(body["domains"]) == 50 and body["nextCursor"] is not None
    rest = api.get(URL, {"cursor": body["nextCursor"]}).json()
    assert len(rest["domains"]) == 1 and rest["nextCursor"] is None


def test_a_full_last_page_has_no_next_cursor(api, org):
    for _ in range(4):
        DomainFactory(organisation=org)
    assert api.get(URL, {"limit": 4}).json()["nextCursor"] is None


@pytest.mark.parametrize("asked", ["deploys", "DEPLOYS", " Deploys "])
def test_the_domain_parameter_picks_one_domain_case_insensitively(api, org, asked):
    DomainFactory(organisation=org, name="Deploys")
    DomainFactory(organisation=org, name="deploys staging")
    body = api.get(URL, {"domain": asked}).json()
    assert [d["domain"] for d in body["domains"]] == ["Deploys"]


def test_an_unknown_domain_lists_nothing(api, org):
    DomainFactory(organisation=org, name="deploys")
    assert api.get(URL, {"domain": "billing"}).json() == {"domains": [], "nextCursor": None}


@pytest.mark.parametrize(
    ("query", "path"),
    [("limit=0", "limit"), ("limit=101", "limit"), ("limit=ten", "limit"), ("cursor=!!!", "cursor"),
     ("cursor=abc", "cursor"), ("domain=" + "x" * 101, "domain"), ("colour=red", "colour")],
)  # fmt: skip
def test_a_bad_parameter_is_invalid_request_naming_it(api, org, query, path):
    answer = api.get(f"{URL}?{query}")
    assert answer.status_code == 400 and answer.json()["error"] == "InvalidRequest"
    assert path in [issue["path"] for issue in answer.json()["issues"]]


def test_another_organisations_domains_are_never_listed(api, org, other_org):
    DomainFactory(organisation=org, name="ours")
    foreign = DomainFactory(organisation=other_org, name="theirs")
    NoteFactory(domain=foreign, text="their secret pattern")
    DomainFactory(organisation=other_org, name="ours")
    body = api.get(URL).json()
    assert [d["domain"] for d in body["domains"]] == ["ours"]
    assert body["domains"][0]["failurePatterns"] == []
    assert api.get(URL, {"domain": "theirs"}).json()["domains"] == []


def test_a_cursor_from_another_organisation_shows_only_the_callers_domains(
    api, org, other_org, client_for
):
    for name in "abc":
        DomainFactory(organisation=other_org, name=name)
    DomainFactory(organisation=org, name="z")
    theirs = client_for(ApiKeyFactory(organisation=other_org))
    cursor = theirs.get(URL, {"limit": 1}).json()["nextCursor"]
    assert [d["domain"] for d in api.get(URL, {"cursor": cursor}).json()["domains"]] == ["z"]


def test_listing_takes_the_same_queries_for_three_domains_as_for_thirty(api, org):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert api.get(URL).status_code == 200
        return len(captured)

    def add(count: int) -> None:
        for _ in range(count):
            domain = DomainFactory(organisation=org)
            NoteFactory(domain=domain)
            NoteFactory(domain=domain, kind="strategy")

    queries()  # the key's first use of the minute records lastUsedAt
    add(3)
    few = queries()
    add(27)
    assert queries() == few


def test_reading_needs_memories_read(client_for, org):
    key = ApiKeyFactory(organisation=org, scopes=["memories:write"])
    answer = client_for(key).get(URL)
    assert answer.status_code == 403
    assert answer.json()["requiredScope"] == "memories:read"


def test_reading_without_a_key_is_unauthorized(client_for, org):
    assert client_for(None).get(URL).status_code == 401


def test_head_answers_like_get_without_a_body(api, org):
    answer = api.head(URL)
    assert answer.status_code == 200 and answer.content == b""
