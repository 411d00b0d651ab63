"""GET /billing/usage: parameters, errors and the window (figures: test_usage_history)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from tests.storage.envelope import error_of
from tests.storage.factories import ApiKeyFactory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 10, 14, 25, tzinfo=UTC)


def usage(client, query: str = ""):
    return client.get(f"/v1/billing/usage{'?' if query else ''}{query}")


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.mark.parametrize("permissions", [["admin"], ["billing:read"]])
def test_admin_and_billing_read_keys_get_the_report(client_for, permissions):
    response = usage(client_for(ApiKeyFactory(permissions=permissions)))
    assert response.status_code == 200
    assert set(response.json()["data"]) == {
        "period",
        "summary",
        "timeline",
        "breakdown",
        "projections",
    }


def test_other_keys_are_refused(client_for):
    key = ApiKeyFactory(permissions=["files:read", "files:write", "keys:read"])
    assert error_of(usage(client_for(key)), 403)["code"] == "ACCESS_DENIED"


@pytest.mark.parametrize(
    "query, period, granularity, buckets",
    [
        ("", ("2026-02-08T15:00:00.000Z", "2026-03-10T15:00:00.000Z"), "day", 31),
        ("period=day", ("2026-03-09T15:00:00.000Z", "2026-03-10T15:00:00.000Z"), "hour", 24),
        ("period=week", ("2026-03-03T15:00:00.000Z", "2026-03-10T15:00:00.000Z"), "day", 8),
        ("period=year", ("2025-03-10T15:00:00.000Z", "2026-03-10T15:00:00.000Z"), "month", 13),
        (
            "period=day&granularity=week",
            ("2026-03-09T15:00:00.000Z", "2026-03-10T15:00:00.000Z"),
            "week",
            1,
        ),
        (
            "start=2026-03-01T10:30:00Z&end=2026-03-01T12:00:01Z",
            ("2026-03-01T10:00:00.000Z", "2026-03-01T13:00:00.000Z"),
            "day",
            1,
        ),
        (
            "start=2026-03-01&granularity=hour",
            ("2026-03-01T00:00:00.000Z", "2026-03-10T15:00:00.000Z"),
            "hour",
            9 * 24 + 15,
        ),
        (
            "end=2026-03-01T00:00:00Z&period=week",
            ("2026-02-22T00:00:00.000Z", "2026-03-01T00:00:00.000Z"),
            "day",
            7,
        ),
        (
            "period=day&start=2026-02-01T00:00:00%2B01:00&end=2026-02-02T00:00:00%2B01:00",
            ("2026-01-31T23:00:00.000Z", "2026-02-01T23:00:00.000Z"),
            "hour",
            24,
        ),
        (  # an unencoded + arrives as a space
            "start=2026-02-01T00:00:00+01:00&end=2026-02-01T06:00:00+01:00&granularity=hour",
            ("2026-01-31T23:00:00.000Z", "2026-02-01T05:00:00.000Z"),
            "hour",
            6,
        ),
    ],
)
def test_the_window_and_its_buckets(api, query, period, granularity, buckets):
    data = usage(api, query).json()["data"]
    assert (data["period"]["start"], data["period"]["end"]) == period
    assert data["period"]["granularity"] == granularity
    assert len(data["timeline"]) == buckets


@pytest.mark.parametrize("query", ["period=day", "start=2026-03-10T00:00:00Z&granularity=hour"])
def test_until_now_takes_in_the_current_hour_even_in_its_first_second(api, query):
    with time_machine.travel(datetime(2026, 3, 10, 15, 0, 0, tzinfo=UTC), tick=False):
        data = usage(api, query).json()["data"]
    assert data["period"]["end"] == "2026-03-10T16:00:00.000Z"
    assert data["timeline"][-1]["date"] == "2026-03-10T15:00:00.000Z"


def test_calendar_buckets_start_on_the_unit(api):
    weeks = usage(api, "start=2026-02-04T00:00:00Z&end=2026-02-20T00:00:00Z&granularity=week")
    assert [item["date"] for item in weeks.json()["data"]["timeline"]] == [
        "2026-02-02T00:00:00.000Z",
        "2026-02-09T00:00:00.000Z",
        "2026-02-16T00:00:00.000Z",
    ]
    months = usage(api, "start=2025-12-15T00:00:00Z&end=2026-03-01T00:00:00Z&granularity=month")
    assert [item["date"] for item in months.json()["data"]["timeline"]] == [
        "2025-12-01T00:00:00.000Z",
        "2026-01-01T00:00:00.000Z",
        "2026-02-01T00:00:00.000Z",
    ]


@pytest.mark.parametrize(
    "query, start, end",
    [
        ("start=2026-03-02T00:00:00Z&end=2026-03-01T00:00:00Z", "2026-03-02", "2026-03-01"),
        ("start=2026-03-01T00:00:00Z&end=2026-03-01T00:00:00Z", "2026-03-01", "2026-03-01"),
        ("start=2026-04-01T00:00:00Z", "2026-04-01", "2026-03-10"),  # until now, which is before
    ],
)
def test_an_end_not_after_the_start_is_invalid_date_range(api, query, start, end):
    error = error_of(usage(api, query), 400)
    assert error["code"] == "INVALID_DATE_RANGE"
    assert error["details"]["start"].startswith(start)
    assert error["details"]["end"].startswith(end)
    assert error["details"]["reason"]


@pytest.mark.parametrize(
    "query, days",
    [
        ("start=2025-01-01T00:00:00Z&end=2026-01-01T00:00:01Z", 366),
        ("start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z", 2192),
        ("start=2024-01-01T00:00:00Z", 800),
    ],
)
def test_more_than_365_days_is_date_range_too_large(api, query, days):
    error = error_of(usage(api, query), 400)
    assert error["code"] == "DATE_RANGE_TOO_LARGE"
    assert error["details"] == {"maxDays": 365, "requestedDays": days}


def test_365_days_at_hour_granularity_is_allowed(api):
    data = usage(api, "start=2025-03-10T14:00:00Z&end=2026-03-10T14:00:00Z&granularity=hour")
    assert len(data.json()["data"]["timeline"]) == 365 * 24


@pytest.mark.parametrize(
    "query, name",
    [
        ("period=fortnight", "period"),
        ("period=", None),  # empty means the default
        ("granularity=minute", "granularity"),
        ("granularity=DAY", "granularity"),
        ("start=yesterday", "start"),
        ("end=2026-02-30", "end"),
        ("start=2026-03-01T25:00:00Z", "start"),
        ("start=%00", "start"),
        ("start=%ED%A0%80", "start"),
        ("start=" + "9" * 5000, "start"),
        ("start=0001-01-01", "start"),
        ("end=9999-12-31T23:59:59Z", "end"),
    ],
)
def test_unknown_values_and_unparseable_dates_are_invalid_parameters(api, query, name):
    response = usage(api, query)
    if name is None:
        assert response.status_code == 200
        return
    error = error_of(response, 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert name in error["details"]


def test_more_buckets_than_a_response_carries_is_invalid_parameters(api, settings):
    settings.USAGE_MAX_BUCKETS = 48
    assert usage(api, "period=day&granularity=hour").status_code == 200
    error = error_of(usage(api, "period=week&granularity=hour"), 400)
    assert error["code"] == "INVALID_PARAMETERS"
    assert "48" in error["details"]["granularity"]


def test_a_report_that_holds_now_includes_its_own_request(api):
    data = usage(api, "period=day").json()["data"]
    assert data["summary"]["requests"]["total"] == 1
    assert data["breakdown"]["byEndpoint"]["GET /billing/usage"]["count"] == 1
    assert data["timeline"][-1]["requests"]["count"] == 1
