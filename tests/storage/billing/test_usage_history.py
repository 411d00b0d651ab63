"""GET /v1/billing/usage checked against a scripted history on a frozen clock.

Every expected figure below is worked out by hand from the script it sits next to, following the
contract (`shared/spec/storage-service.md`, `shared/spec/decisions.md`) and the README's
"Billing and usage" section. Reports are asked for at a moment after the window they cover, unless
a test is about "now", so that the report requests themselves never fall inside a window whose
request counts are asserted exactly (whether a report counts itself is not defined).
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from rest_framework.test import APIClient

from tests.storage.envelope import data_of, error_of
from tests.storage.factories import ApiKeyFactory, OrganisationFactory

pytestmark = pytest.mark.django_db

GIB = 1024**3
DOWNLOAD_LABEL = "GET /downloads/…"  # the signed link's route template is not named by the docs


# --- building a history ------------------------------------------------------------------------


def utc(text: str) -> datetime:
    """'2028-02-28 09:10' -> that moment in UTC."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (3, 2), "red").save(buffer, "PNG")
    return buffer.getvalue()


HEADS = {
    "image": _png(),
    "pdf": b"%PDF-1.4\n",
    "video": b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom",
    "audio": b"ID3\x03\x00\x00\x00\x00\x00\x00",
}


def content(kind: str, size: int) -> bytes:
    """``size`` bytes that the service sniffs as ``kind``."""
    if kind == "text":
        return (b"plain words\n" * size)[:size]
    if kind == "other":
        return (bytes(range(256)) * (size // 256 + 1))[:size]
    head = HEADS[kind]
    return head + b"\0" * (size - len(head))


def upload(client, name: str, kind: str, size: int, folder_id: str | None = None) -> dict:
    fields = {"file": SimpleUploadedFile(name, content(kind, size))}
    if folder_id:
        fields["folderId"] = folder_id
    file = data_of(client.post("/v1/files/upload", fields, format="multipart"))["file"]
    assert file["size"] == size
    return file


def download(url: str, byte_range: str | None = None) -> bytes:
    """Fetch a signed link without a key (the link is the credential) and read it to the end."""
    extra = {"HTTP_RANGE": byte_range} if byte_range else {}
    response = APIClient().get(url, **extra)
    assert response.status_code == (206 if byte_range else 200)
    return b"".join(response.streaming_content)


@pytest.fixture
def clock():
    with time_machine.travel(utc("2028-02-28 00:00"), tick=False) as traveller:
        yield traveller


@pytest.fixture
def long_links(settings):
    """Signed links that stay valid across the days of a history."""
    settings.DOWNLOAD_URL_TTL = 90 * 24 * 3600


@pytest.fixture
def history(api, clock, long_links):
    """The main script, around the leap day; the clock is left at 2028-03-20 12:30.

    time              what                                         label              bytes
    02-28 09:10  upload pic.png   image     400                    POST /files/upload
    02-28 09:20  upload notes.txt document  100                    POST /files/upload
    02-28 09:30  list files                                        GET /files
    02-28 10:05  upload clip.mp4  video    1000                    POST /files/upload
    02-28 10:40  download pic.png whole (400 bytes)                download link
    02-28 10:50  GET /v1/nope (404)                                other
    02-28 23:30  upload song.mp3  audio (other)  200               POST /files/upload
    02-29 00:15  list keys                                         GET /keys
    02-29 00:20  list keys                                         GET /keys
    02-29 12:00  download clip.mp4 bytes=0-9 (10 bytes)            download link
    02-29 12:30  delete notes.txt                                  DELETE /files/{fileId}
    02-29 13:45  upload blob.bin  other     300                    POST /files/upload
    03-01 08:00  list files                                        GET /files
    03-01 08:30  delete clip.mp4                                   DELETE /files/{fileId}

    Levels (bytes, files) at hour boundaries:
      up to 02-28 09:00    0, 0
      02-28 10:00        500, 2
      02-28 11:00..23:00 1500, 3
      02-29 00:00..12:00 1700, 4
      02-29 13:00        1600, 3
      02-29 14:00..03-01 08:00  1900, 4
      from 03-01 09:00    900, 3   (pic 400 image; song 200 + blob 300 other)
    Requests by hour: 02-28 09h 3, 10h 3, 23h 1; 02-29 00h 2, 12h 2, 13h 1; 03-01 08h 2 (14).
    Upload bytes: 02-28 09h 500, 10h 1000, 23h 200; 02-29 13h 300 (2000).
    Download bytes: 02-28 10h 400; 02-29 12h 10 (410).
    """
    at = clock.move_to
    at(utc("2028-02-28 09:10"))
    pic = upload(api, "pic.png", "image", 400)
    at(utc("2028-02-28 09:20"))
    notes = upload(api, "notes.txt", "text", 100)
    at(utc("2028-02-28 09:30"))
    data_of(api.get("/v1/files"))
    at(utc("2028-02-28 10:05"))
    clip = upload(api, "clip.mp4", "video", 1000)
    at(utc("2028-02-28 10:40"))
    assert len(download(pic["url"])) == 400
    at(utc("2028-02-28 10:50"))
    error_of(api.get("/v1/nope"), 404, "NOT_FOUND")
    at(utc("2028-02-28 23:30"))
    upload(api, "song.mp3", "audio", 200)
    at(utc("2028-02-29 00:15"))
    data_of(api.get("/v1/keys"))
    at(utc("2028-02-29 00:20"))
    data_of(api.get("/v1/keys"))
    at(utc("2028-02-29 12:00"))
    assert len(download(clip["url"], "bytes=0-9")) == 10
    at(utc("2028-02-29 12:30"))
    data_of(api.delete(f"/v1/files/{notes['id']}"))
    at(utc("2028-02-29 13:45"))
    upload(api, "blob.bin", "other", 300)
    at(utc("2028-03-01 08:00"))
    data_of(api.get("/v1/files"))
    at(utc("2028-03-01 08:30"))
    data_of(api.delete(f"/v1/files/{clip['id']}"))
    at(utc("2028-03-20 12:30"))
    return api


# --- reading a report --------------------------------------------------------------------------


def report(client, **params) -> dict:
    return data_of(client.get("/v1/billing/usage", params))


def instant(text: str) -> datetime:
    """An ISO 8601 date or date-time from the response (no offset read as UTC)."""
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def window(data: dict) -> tuple[datetime, datetime, str]:
    period = data["period"]
    return instant(period["start"]), instant(period["end"]), period["granularity"]


def timeline(data: dict) -> list[dict]:
    return [{**item, "date": instant(item["date"])} for item in data["timeline"]]


def dates(data: dict) -> list[datetime]:
    return [item["date"] for item in timeline(data)]


def row(date, used, used_pct, count, count_pct, files, files_pct, up=0, down=0) -> dict:
    """One expected timeline item."""
    return {
        "date": utc(date),
        "storage": {"used": used, "percentage": used_pct},
        "requests": {"count": count, "percentage": count_pct},
        "files": {"count": files, "percentage": files_pct},
        "bandwidth": {"upload": up, "download": down},
    }


def summary(data: dict) -> dict:
    """The summary, with the bandwidth unit (a string the docs do not fix) checked and dropped."""
    result = {**data["summary"], "bandwidth": dict(data["summary"]["bandwidth"])}
    assert isinstance(result["bandwidth"].pop("unit"), str)
    return result


def expected_summary(storage, files, requests, bandwidth) -> dict:
    """Each of storage, files, requests as (total, average, peak); bandwidth as (up, down)."""
    units = {"storage": "bytes", "files": "files", "requests": "requests"}
    figures = {"storage": storage, "files": files, "requests": requests}
    result = {
        name: {"total": total, "average": average, "peak": peak, "unit": units[name]}
        for name, (total, average, peak) in figures.items()
    }
    result["bandwidth"] = {"upload": bandwidth[0], "download": bandwidth[1]}
    return result


def by_type(**types: tuple[int, int, float]) -> dict:
    """byFileType with (count, size, percentage) for the named types and zeros for the rest."""
    return {
        name: dict(zip(("count", "size", "percentage"), types.get(name, (0, 0, 0)), strict=True))
        for name in ("image", "document", "video", "other")
    }


def endpoints(data: dict) -> dict[str, tuple[int, float]]:
    """byEndpoint as {label: (count, percentage)}; a download link is put under DOWNLOAD_LABEL."""
    result = {}
    for label, value in data["breakdown"]["byEndpoint"].items():
        if label.startswith("GET /downloads/"):
            assert DOWNLOAD_LABEL not in result, "one route serves every download link"
            label = DOWNLOAD_LABEL
        result[label] = (value["count"], value["percentage"])
    return result


def by_hour(counts: dict[int, int]) -> dict[str, int]:
    return {str(hour): counts.get(hour, 0) for hour in range(24)}


def projections(storage: tuple, requests: tuple) -> dict:
    keys = ("currentTrend", "projectedEndOfPeriod", "projectedNextPeriod")
    return {
        "storage": dict(zip(keys, storage, strict=True)),
        "requests": dict(zip(keys, requests, strict=True)),
    }


# --- the main history at each granularity ------------------------------------------------------


def test_three_days_by_day_across_the_leap_day(history):
    data = report(history, start="2028-02-28T00:00:00Z", end="2028-03-02T00:00:00Z")
    assert window(data) == (utc("2028-02-28 00:00"), utc("2028-03-02 00:00"), "day")
    # Each day: level at its end; requests as a share of 1000 x 24; files of the peak (4).
    assert timeline(data) == [
        row("2028-02-28", 1700, 0.0, 7, 0.03, 4, 100.0, up=1700, down=400),  # 7/24000
        row("2028-02-29", 1900, 0.0, 5, 0.02, 4, 100.0, up=300, down=10),  # 5/24000
        row("2028-03-01", 900, 0.0, 2, 0.01, 3, 75.0),  # 2/24000 = 0.0083
    ]
    # storage average (1700 + 1900 + 900) / 3; files (4 + 4 + 3) / 3; requests 14 / 3 days.
    assert summary(data) == expected_summary(
        storage=(900, 1500.0, 1900),
        files=(3, 3.67, 4),
        requests=(14, 4.67, 7),
        bandwidth=(2000, 410),
    )


def test_three_days_breakdown(history):
    data = report(history, start="2028-02-28T00:00:00Z", end="2028-03-02T00:00:00Z")
    # Stored at 03-02 00:00: pic 400 (image), song 200 + blob 300 (other); 900 bytes in all.
    assert data["breakdown"]["byFileType"] == by_type(image=(1, 400, 44.44), other=(2, 500, 55.56))
    assert endpoints(data) == {
        "POST /files/upload": (5, 35.71),
        "GET /files": (2, 14.29),
        "GET /keys": (2, 14.29),
        "DELETE /files/{fileId}": (2, 14.29),
        DOWNLOAD_LABEL: (2, 14.29),
        "other": (1, 7.14),
    }
    assert data["breakdown"]["byHour"] == by_hour({0: 2, 8: 2, 9: 3, 10: 3, 12: 2, 13: 1, 23: 1})


def test_three_days_projections(history):
    data = report(history, start="2028-02-28T00:00:00Z", end="2028-03-02T00:00:00Z")
    # Storage 1700, 1900, 900: line 1900 - 400x, so 1100 at the last bucket, -100 (so 0) at the
    # last bucket of the next three days; the fall of 800 is far over 5% of the mean 1500.
    # Requests 7, 5, 2: the window has ended, so its projection is its total; the line
    # 7.17 - 2.5x is below zero over the next three days.
    assert data["projections"] == projections(("decreasing", 1100, 0), ("decreasing", 14, 0))


def test_four_hours_by_hour(history):
    data = report(
        history, start="2028-02-28T08:00:00Z", end="2028-02-28T12:00:00Z", granularity="hour"
    )
    assert window(data) == (utc("2028-02-28 08:00"), utc("2028-02-28 12:00"), "hour")
    # Requests as a share of 1000 an hour; files of the peak (3).
    assert timeline(data) == [
        row("2028-02-28 08:00", 0, 0.0, 0, 0.0, 0, 0.0),
        row("2028-02-28 09:00", 500, 0.0, 3, 0.3, 2, 66.67, up=500),
        row("2028-02-28 10:00", 1500, 0.0, 3, 0.3, 3, 100.0, up=1000, down=400),
        row("2028-02-28 11:00", 1500, 0.0, 0, 0.0, 3, 100.0),
    ]
    figures = summary(data)
    # One day touched, its value the level at the window's end; the requests' daily average over
    # a 4-hour window is left out (see the report of this file).
    assert figures["storage"] == {"total": 1500, "average": 1500.0, "peak": 1500, "unit": "bytes"}
    assert figures["files"] == {"total": 3, "average": 3.0, "peak": 3, "unit": "files"}
    assert (figures["requests"]["total"], figures["requests"]["peak"]) == (6, 3)
    assert figures["bandwidth"] == {"upload": 1500, "download": 400}
    assert data["breakdown"]["byFileType"] == by_type(
        image=(1, 400, 26.67), document=(1, 100, 6.67), video=(1, 1000, 66.67)
    )
    assert endpoints(data) == {
        "POST /files/upload": (3, 50.0),
        "GET /files": (1, 16.67),
        DOWNLOAD_LABEL: (1, 16.67),
        "other": (1, 16.67),
    }
    assert data["breakdown"]["byHour"] == by_hour({9: 3, 10: 3})
    # Storage 0, 500, 1500, 1500: least squares 50 + 550x -> 1700 at x=3 and 3900 at x=7.
    # Requests 0, 3, 3, 0: flat line at 1.5, so 6 over the next four hours.
    assert data["projections"] == projections(("increasing", 1700, 3900), ("stable", 6, 6))


def test_a_mid_hour_window_widens_to_whole_hours(history):
    whole = report(
        history, start="2028-02-28T08:00:00Z", end="2028-02-28T12:00:00Z", granularity="hour"
    )
    widened = report(
        history, start="2028-02-28T08:30:00Z", end="2028-02-28T11:20:00Z", granularity="hour"
    )
    assert window(widened) == (utc("2028-02-28 08:00"), utc("2028-02-28 12:00"), "hour")
    assert widened == whole


def test_a_start_and_end_on_hour_boundaries_are_not_widened(history):
    data = report(
        history, start="2028-02-28T09:00:00Z", end="2028-02-28T10:00:00Z", granularity="hour"
    )
    assert window(data) == (utc("2028-02-28 09:00"), utc("2028-02-28 10:00"), "hour")
    # The 09:10 and 09:20 uploads and the 09:30 list are in; the 10:05 upload is not.
    assert timeline(data) == [row("2028-02-28 09:00", 500, 0.0, 3, 0.3, 2, 100.0, up=500)]
    figures = summary(data)
    assert figures["storage"] == {"total": 500, "average": 500.0, "peak": 500, "unit": "bytes"}
    assert figures["files"] == {"total": 2, "average": 2.0, "peak": 2, "unit": "files"}
    assert (figures["requests"]["total"], figures["requests"]["peak"]) == (3, 3)
    assert endpoints(data) == {
        "POST /files/upload": (2, 66.67),
        "GET /files": (1, 33.33),
        "other": (0, 0),
    }
    assert data["breakdown"]["byFileType"] == by_type(image=(1, 400, 80.0), document=(1, 100, 20.0))
    # Fewer than two buckets: stable; an ended window projects its own request total.
    assert data["projections"]["storage"]["currentTrend"] == "stable"
    assert data["projections"]["requests"]["currentTrend"] == "stable"
    assert data["projections"]["requests"]["projectedEndOfPeriod"] == 3


def test_the_peak_counts_the_level_at_the_windows_start(history):
    data = report(
        history, start="2028-03-01T08:00:00Z", end="2028-03-01T10:00:00Z", granularity="hour"
    )
    # 1900 bytes and 4 files at 08:00; the video goes at 08:30, so both bucket ends hold 900, 3.
    assert timeline(data) == [
        row("2028-03-01 08:00", 900, 0.0, 2, 0.2, 3, 75.0),
        row("2028-03-01 09:00", 900, 0.0, 0, 0.0, 3, 75.0),
    ]
    figures = summary(data)
    assert figures["storage"] == {"total": 900, "average": 900.0, "peak": 1900, "unit": "bytes"}
    assert figures["files"] == {"total": 3, "average": 3.0, "peak": 4, "unit": "files"}
    assert (figures["requests"]["total"], figures["requests"]["peak"]) == (2, 2)
    assert figures["bandwidth"] == {"upload": 0, "download": 0}
    assert endpoints(data) == {
        "GET /files": (1, 50.0),
        "DELETE /files/{fileId}": (1, 50.0),
        "other": (0, 0),
    }
    # Storage flat at 900. Requests 2, 0: line 2 - 2x, negative over the next two hours.
    assert data["projections"] == projections(("stable", 900, 900), ("decreasing", 2, 0))


def test_weeks_are_iso_weeks_from_monday_with_partial_ends(history):
    # Sunday 02-27 to Wednesday 03-08: the weeks of Monday 02-21 (1 day inside), 02-28, 03-06 (2).
    data = report(
        history, start="2028-02-27T00:00:00Z", end="2028-03-08T00:00:00Z", granularity="week"
    )
    assert window(data) == (utc("2028-02-27 00:00"), utc("2028-03-08 00:00"), "week")
    assert timeline(data) == [
        row("2028-02-21", 0, 0.0, 0, 0.0, 0, 0.0),
        row("2028-02-28", 900, 0.0, 14, 0.01, 3, 75.0, up=2000, down=410),  # 14/168000
        row("2028-03-06", 900, 0.0, 0, 0.0, 3, 75.0),
    ]
    # Daily levels over 10 days: 0 (27th), 1700, 1900, then 900 for seven days.
    assert summary(data) == expected_summary(
        storage=(900, 990.0, 1900), files=(3, 2.9, 4), requests=(14, 1.4, 14), bandwidth=(2000, 410)
    )
    # Storage 0, 900, 900: line 150 + 450x, 1050 at the last bucket. Requests 0, 14, 0: flat.
    storage, requests = data["projections"]["storage"], data["projections"]["requests"]
    assert (storage["currentTrend"], storage["projectedEndOfPeriod"]) == ("increasing", 1050)
    assert (requests["currentTrend"], requests["projectedEndOfPeriod"]) == ("stable", 14)


def test_months_from_the_first_with_a_leap_february(history):
    data = report(
        history, start="2028-01-15T00:00:00Z", end="2028-03-10T00:00:00Z", granularity="month"
    )
    assert window(data) == (utc("2028-01-15 00:00"), utc("2028-03-10 00:00"), "month")
    # Requests against 1000 x 696 hours (February 2028) and 1000 x 216 (9 days of March).
    assert timeline(data) == [
        row("2028-01-01", 0, 0.0, 0, 0.0, 0, 0.0),
        row("2028-02-01", 1900, 0.0, 12, 0.0, 4, 100.0, up=2000, down=410),
        row("2028-03-01", 900, 0.0, 2, 0.0, 3, 75.0),
    ]
    # 55 days: 44 at 0, then 1700, 1900 and nine days at 900 -> 11700 / 55 = 212.73;
    # files (4 + 4 + 27) / 55 = 0.64; requests 14 / 55 = 0.25.
    assert summary(data) == expected_summary(
        storage=(900, 212.73, 1900),
        files=(3, 0.64, 4),
        requests=(14, 0.25, 12),
        bandwidth=(2000, 410),
    )
    # Storage 0, 1900, 900: line 483.33 + 450x -> 1383 at the last bucket.
    # Requests 0, 12, 2: slope 1, a rise of 2 on a mean of 4.67.
    storage, requests = data["projections"]["storage"], data["projections"]["requests"]
    assert (storage["currentTrend"], storage["projectedEndOfPeriod"]) == ("increasing", 1383)
    assert (requests["currentTrend"], requests["projectedEndOfPeriod"]) == ("increasing", 14)


def test_the_leap_day_by_day_and_by_hour(history):
    data = report(history, start="2028-02-29", end="2028-03-01")
    assert window(data) == (utc("2028-02-29 00:00"), utc("2028-03-01 00:00"), "day")
    assert timeline(data) == [row("2028-02-29", 1900, 0.0, 5, 0.02, 4, 100.0, up=300, down=10)]
    # Hour boundaries: 1700 at 00:00 .. 12:00, 1600 at 13:00, 1900 from 14:00.
    assert summary(data) == expected_summary(
        storage=(1900, 1900.0, 1900), files=(4, 4.0, 4), requests=(5, 5.0, 5), bandwidth=(300, 10)
    )
    assert data["breakdown"]["byFileType"] == by_type(
        image=(1, 400, 21.05), video=(1, 1000, 52.63), other=(2, 500, 26.32)
    )
    assert endpoints(data) == {
        "GET /keys": (2, 40.0),
        DOWNLOAD_LABEL: (1, 20.0),
        "DELETE /files/{fileId}": (1, 20.0),
        "POST /files/upload": (1, 20.0),
        "other": (0, 0),
    }
    assert data["breakdown"]["byHour"] == by_hour({0: 2, 12: 2, 13: 1})

    hourly = timeline(report(history, start="2028-02-29", end="2028-03-01", granularity="hour"))
    assert [item["date"] for item in hourly] == [utc(f"2028-02-29 {h:02}:00") for h in range(24)]
    assert [item["storage"]["used"] for item in hourly] == [1700] * 12 + [1600] + [1900] * 11
    assert [item["files"]["count"] for item in hourly] == [4] * 12 + [3] + [4] * 11
    assert {
        h: item["requests"]["count"] for h, item in enumerate(hourly) if item["requests"]["count"]
    } == {0: 2, 12: 2, 13: 1}
    assert [
        item["bandwidth"] for item in hourly if item["bandwidth"] != {"upload": 0, "download": 0}
    ] == [
        {"upload": 0, "download": 10},
        {"upload": 300, "download": 0},
    ]


def test_an_empty_window_keeps_the_stored_levels(history):
    data = report(history, start="2028-03-05T00:00:00Z", end="2028-03-08T00:00:00Z")
    assert timeline(data) == [
        row(f"2028-03-0{day}", 900, 0.0, 0, 0.0, 3, 100.0) for day in (5, 6, 7)
    ]
    assert summary(data) == expected_summary(
        storage=(900, 900.0, 900), files=(3, 3.0, 3), requests=(0, 0.0, 0), bandwidth=(0, 0)
    )
    assert data["breakdown"]["byFileType"] == by_type(image=(1, 400, 44.44), other=(2, 500, 55.56))
    assert endpoints(data) == {"other": (0, 0)}
    assert data["breakdown"]["byHour"] == by_hour({})
    assert data["projections"] == projections(("stable", 900, 900), ("stable", 0, 0))


# --- which window ------------------------------------------------------------------------------


def test_explicit_start_and_end_win_over_period_which_still_sets_the_granularity(history):
    data = report(history, period="day", start="2028-02-28T00:00:00Z", end="2028-03-01T00:00:00Z")
    assert window(data) == (utc("2028-02-28 00:00"), utc("2028-03-01 00:00"), "hour")
    assert dates(data) == [utc(f"2028-02-{day} {h:02}:00") for day in (28, 29) for h in range(24)]
    counts = {
        item["date"]: item["requests"]["count"]
        for item in timeline(data)
        if item["requests"]["count"]
    }
    assert counts == {
        utc("2028-02-28 09:00"): 3,
        utc("2028-02-28 10:00"): 3,
        utc("2028-02-28 23:00"): 1,
        utc("2028-02-29 00:00"): 2,
        utc("2028-02-29 12:00"): 2,
        utc("2028-02-29 13:00"): 1,
    }
    monthly = report(
        history, start="2028-01-15T00:00:00Z", end="2028-03-10T00:00:00Z", period="year"
    )
    assert window(monthly) == (utc("2028-01-15 00:00"), utc("2028-03-10 00:00"), "month")
    assert dates(monthly) == [utc("2028-01-01"), utc("2028-02-01"), utc("2028-03-01")]


def test_start_and_end_without_a_period_are_by_day(history):
    data = report(history, start="2028-02-27T00:00:00Z", end="2028-03-02T00:00:00Z")
    assert window(data)[2] == "day"
    assert dates(data) == [utc(d) for d in ("2028-02-27", "2028-02-28", "2028-02-29", "2028-03-01")]


@pytest.mark.parametrize(
    "query",
    [
        "start=2028-02-28T10:00:00%2B02:00&end=2028-02-28T12:00:00&granularity=hour",
        # A + that the query string turned into a space is read as +.
        "start=2028-02-28T10:00:00+02:00&end=2028-02-28T14:00:00+02:00&granularity=hour",
        "start=2028-02-28T08:00Z&end=2028-02-28T11:59:59.5Z&granularity=hour",
    ],
)
def test_dates_with_offsets_or_without_one_are_read_as_instants(history, query):
    data = data_of(history.get(f"/v1/billing/usage?{query}"))
    assert window(data) == (utc("2028-02-28 08:00"), utc("2028-02-28 12:00"), "hour")
    assert [item["requests"]["count"] for item in timeline(data)] == [0, 3, 3, 0]


def test_only_end_means_the_periods_length_ending_there(history):
    data = report(history, end="2028-03-02T00:00:00Z")  # period month: 30 days
    assert window(data) == (utc("2028-02-01 00:00"), utc("2028-03-02 00:00"), "day")
    assert len(data["timeline"]) == 30
    assert summary(data)["requests"]["total"] == 14
    weekly = report(history, end="2028-03-02T00:00:00Z", period="week")
    assert window(weekly) == (utc("2028-02-24 00:00"), utc("2028-03-02 00:00"), "day")
    assert [item["requests"]["count"] for item in timeline(weekly)] == [0, 0, 0, 0, 7, 5, 2]


def test_only_start_means_until_now(history):
    # Now is 2028-03-20 12:30; the window ends at the end of the current hour.
    data = report(history, start="2028-03-01T00:00:00Z")
    assert window(data) == (utc("2028-03-01 00:00"), utc("2028-03-20 13:00"), "day")
    assert dates(data) == [utc(f"2028-03-{day:02}") for day in range(1, 21)]
    items = timeline(data)
    assert items[0]["requests"]["count"] == 2
    assert all(item["requests"]["count"] == 0 for item in items[1:-1])
    assert items[-1]["storage"]["used"] == 900 and items[-1]["files"]["count"] == 3


@pytest.fixture
def recent(api, clock):
    """A short history up to the leap day; now is 2028-02-29 22:15.

    02-10 05:30 upload notes.txt (100); 02-29 03:10 upload pic.png (400); 02-29 21:59 list files.
    """
    clock.move_to(utc("2028-02-10 05:30"))
    upload(api, "notes.txt", "text", 100)
    clock.move_to(utc("2028-02-29 03:10"))
    upload(api, "pic.png", "image", 400)
    clock.move_to(utc("2028-02-29 21:59"))
    data_of(api.get("/v1/files"))
    clock.move_to(utc("2028-02-29 22:15"))
    return api


@pytest.mark.parametrize(
    ("params", "start", "granularity", "first", "count", "uploaded"),
    [
        ({"period": "day"}, "2028-02-28 23:00", "hour", "2028-02-28 23:00", 24, 400),
        ({"period": "week"}, "2028-02-22 23:00", "day", "2028-02-22 00:00", 8, 400),
        ({"period": "month"}, "2028-01-30 23:00", "day", "2028-01-30 00:00", 31, 500),
        ({}, "2028-01-30 23:00", "day", "2028-01-30 00:00", 31, 500),
        ({"period": "year"}, "2027-03-01 23:00", "month", "2027-03-01 00:00", 12, 500),
        ({"period": "week", "granularity": "hour"}, "2028-02-22 23:00", "hour", None, 168, 400),
    ],
)
def test_a_period_alone_is_the_window_ending_now(
    recent, params, start, granularity, first, count, uploaded
):
    data = report(recent, **params)
    assert window(data) == (utc(start), utc("2028-02-29 23:00"), granularity)
    assert len(data["timeline"]) == count
    assert dates(data)[0] == utc(first or start)
    figures = summary(data)
    assert (figures["storage"]["total"], figures["files"]["total"]) == (500, 2)
    assert (figures["storage"]["peak"], figures["files"]["peak"]) == (500, 2)
    assert figures["bandwidth"] == {"upload": uploaded, "download": 0}


def test_period_day_figures(recent):
    data = report(recent, period="day")
    items = timeline(data)
    # The current hour (22:00 on the 29th) and the 23 before it.
    assert dates(data) == [utc("2028-02-28 23:00")] + [
        utc(f"2028-02-29 {h:02}:00") for h in range(23)
    ]
    # Levels: 100 bytes (1 file) until 03:00 on the 29th, 500 (2) from 04:00.
    assert [item["storage"]["used"] for item in items] == [100] * 4 + [500] * 20
    assert [item["files"]["count"] for item in items] == [1] * 4 + [2] * 20
    assert [item["files"]["percentage"] for item in items] == [50.0] * 4 + [100.0] * 20
    assert [item["requests"]["count"] for item in items[:-1]] == [0] * 4 + [1] + [0] * 17 + [1]
    # The current hour holds this report's request or not: the docs do not say which.
    assert items[-1]["requests"]["count"] in (0, 1)
    figures = summary(data)
    # Days touched: the 28th (100 at its end) and the 29th (500 at the window's end).
    assert figures["storage"] == {"total": 500, "average": 300.0, "peak": 500, "unit": "bytes"}
    assert figures["files"] == {"total": 2, "average": 1.5, "peak": 2, "unit": "files"}
    assert figures["bandwidth"] == {"upload": 400, "download": 0}
    assert data["breakdown"]["byFileType"] == by_type(image=(1, 400, 80.0), document=(1, 100, 20.0))


def test_a_window_reaching_into_the_future_projects_its_unbegun_buckets(api, clock):
    # Requests at 21h: 3, at 22h: 5 before the report at 22:15 (and perhaps the report itself).
    clock.move_to(utc("2028-02-29 21:10"))
    for _ in range(3):
        data_of(api.get("/v1/files"))
    clock.move_to(utc("2028-02-29 22:05"))
    for _ in range(5):
        data_of(api.get("/v1/keys"))
    clock.move_to(utc("2028-02-29 22:15"))
    data = report(api, start="2028-02-29T21:00:00Z", end="2028-03-01T01:00:00Z", granularity="hour")
    items = timeline(data)
    assert [item["date"] for item in items] == [
        utc("2028-02-29 21:00"),
        utc("2028-02-29 22:00"),
        utc("2028-02-29 23:00"),
        utc("2028-03-01 00:00"),
    ]
    assert [item["requests"]["count"] for item in items[2:]] == [0, 0]
    assert items[0]["requests"]["count"] == 3
    now_count = items[1]["requests"]["count"]
    assert now_count in (5, 6)
    # Begun buckets 21h, 22h; line through (0, 3), (1, now_count) extended over x = 2, 3 for the
    # rest of this window and x = 4..7 for the next:
    #   5 -> 3 + 2x: 8 so far + 7 + 9 = 24; next 11 + 13 + 15 + 17 = 56
    #   6 -> 3 + 3x: 9 so far + 9 + 12 = 30; next 15 + 18 + 21 + 24 = 78
    expected = {5: ("increasing", 24, 56), 6: ("increasing", 30, 78)}[now_count]
    assert data["projections"]["requests"] == dict(
        zip(("currentTrend", "projectedEndOfPeriod", "projectedNextPeriod"), expected, strict=True)
    )


def test_a_window_before_the_organisation_existed_is_all_zeros(client_for):
    with time_machine.travel(utc("2028-03-01 09:00"), tick=False) as clock:
        key = ApiKeyFactory(organisation=OrganisationFactory())
        client = client_for(key)
        clock.move_to(utc("2028-03-01 10:00"))
        upload(client, "pic.png", "image", 400)
        data_of(client.get("/v1/files"))
        clock.move_to(utc("2028-03-05 12:00"))
        data = report(client, start="2027-12-01T00:00:00Z", end="2028-01-01T00:00:00Z")
    assert window(data) == (utc("2027-12-01 00:00"), utc("2028-01-01 00:00"), "day")
    assert timeline(data) == [row(f"2027-12-{day:02}", 0, 0, 0, 0, 0, 0) for day in range(1, 32)]
    assert summary(data) == expected_summary(
        storage=(0, 0, 0), files=(0, 0, 0), requests=(0, 0, 0), bandwidth=(0, 0)
    )
    assert data["breakdown"]["byFileType"] == by_type()
    assert endpoints(data) == {"other": (0, 0)}
    assert data["breakdown"]["byHour"] == by_hour({})
    assert data["projections"] == projections(("stable", 0, 0), ("stable", 0, 0))


# --- percentages against the plan --------------------------------------------------------------


@pytest.mark.parametrize(
    ("plan", "expected"), [("free", [2.0, 0.1, 0.3]), ("creator", [0.2, 0.01, 0.03])]
)
def test_request_percentages_use_the_hours_of_each_bucket_inside_the_window(
    client_for, plan, expected
):
    with time_machine.travel(utc("2028-02-28 22:05"), tick=False) as clock:
        client = client_for(ApiKeyFactory(organisation=OrganisationFactory(plan=plan)))
        for _ in range(40):
            data_of(client.get("/v1/keys"))
        clock.move_to(utc("2028-02-29 10:05"))
        for _ in range(24):
            data_of(client.get("/v1/keys"))
        clock.move_to(utc("2028-03-01 01:05"))
        for _ in range(6):
            data_of(client.get("/v1/files"))
        clock.move_to(utc("2028-03-02 12:00"))
        data = report(client, start="2028-02-28T22:00:00Z", end="2028-03-01T02:00:00Z")
    # Hours inside: 2, 24, 2 -> 40 / (rate x 2), 24 / (rate x 24), 6 / (rate x 2).
    items = timeline(data)
    assert [item["requests"]["count"] for item in items] == [40, 24, 6]
    assert [item["requests"]["percentage"] for item in items] == expected
    assert summary(data)["requests"]["peak"] == 40
    assert data["breakdown"]["byHour"] == by_hour({22: 40, 10: 24, 1: 6})
    assert endpoints(data) == {"GET /keys": (64, 91.43), "GET /files": (6, 8.57), "other": (0, 0)}


def test_storage_percentage_is_of_the_plans_storage_limit(api, clock):
    clock.move_to(utc("2028-02-28 10:10"))
    upload(api, "a.bin", "other", 3 * 1024 * 1024)
    clock.move_to(utc("2028-02-28 11:10"))
    upload(api, "b.bin", "other", 2 * 1024 * 1024)
    clock.move_to(utc("2028-02-28 13:00"))
    data = report(api, start="2028-02-28T10:00:00Z", end="2028-02-28T12:00:00Z", granularity="hour")
    # 3 MiB of 1 GiB = 0.29297%; 5 MiB = 0.48828%.
    assert [item["storage"] for item in timeline(data)] == [
        {"used": 3 * 1024 * 1024, "percentage": 0.29},
        {"used": 5 * 1024 * 1024, "percentage": 0.49},
    ]
    assert [item["files"]["percentage"] for item in timeline(data)] == [50.0, 100.0]
    assert summary(data)["bandwidth"] == {"upload": 5 * 1024 * 1024, "download": 0}


# --- folders, the trash and multipart uploads ---------------------------------------------------


def test_a_folder_in_the_trash_leaves_storage_and_comes_back_on_restore(api, clock):
    """10:10 folder; 10:20 a.txt 300 and 10:30 b.png 200 into it; 10:40 c.bin 100 at the root;
    12:10 delete the folder (to the trash); 14:10 restore it. GET /billing at 12:20 and 14:20."""
    clock.move_to(utc("2028-02-28 10:10"))
    folder = data_of(api.post("/v1/folders", {"name": "Album"}, format="json"))["folder"]
    clock.move_to(utc("2028-02-28 10:20"))
    upload(api, "a.txt", "text", 300, folder_id=folder["folderId"])
    clock.move_to(utc("2028-02-28 10:30"))
    upload(api, "b.png", "image", 200, folder_id=folder["folderId"])
    clock.move_to(utc("2028-02-28 10:40"))
    upload(api, "c.bin", "other", 100)

    clock.move_to(utc("2028-02-28 12:10"))
    data_of(api.delete(f"/v1/folders/{folder['folderId']}?force=true"))
    clock.move_to(utc("2028-02-28 12:20"))
    usage = data_of(api.get("/v1/billing"))["currentUsage"]
    assert (usage["storage"], usage["files"], usage["trash"]) == (100, 1, 500)
    assert usage["pendingUploads"] == 0

    clock.move_to(utc("2028-02-28 14:10"))
    data_of(api.post(f"/v1/folders/{folder['folderId']}/restore"))
    clock.move_to(utc("2028-02-28 14:20"))
    usage = data_of(api.get("/v1/billing"))["currentUsage"]
    assert (usage["storage"], usage["files"], usage["trash"]) == (600, 3, 0)

    clock.move_to(utc("2028-02-28 16:30"))
    data = report(api, start="2028-02-28T10:00:00Z", end="2028-02-28T16:00:00Z", granularity="hour")
    assert timeline(data) == [
        row("2028-02-28 10:00", 600, 0.0, 4, 0.4, 3, 100.0, up=600),
        row("2028-02-28 11:00", 600, 0.0, 0, 0.0, 3, 100.0),
        row("2028-02-28 12:00", 100, 0.0, 2, 0.2, 1, 33.33),
        row("2028-02-28 13:00", 100, 0.0, 0, 0.0, 1, 33.33),
        row("2028-02-28 14:00", 600, 0.0, 2, 0.2, 3, 100.0),
        row("2028-02-28 15:00", 600, 0.0, 0, 0.0, 3, 100.0),
    ]
    figures = summary(data)
    assert figures["storage"] == {"total": 600, "average": 600.0, "peak": 600, "unit": "bytes"}
    assert figures["files"] == {"total": 3, "average": 3.0, "peak": 3, "unit": "files"}
    assert (figures["requests"]["total"], figures["requests"]["peak"]) == (8, 4)
    assert data["breakdown"]["byFileType"] == by_type(
        image=(1, 200, 33.33), document=(1, 300, 50.0), other=(1, 100, 16.67)
    )
    assert endpoints(data) == {
        "POST /folders": (1, 12.5),
        "POST /files/upload": (3, 37.5),
        "DELETE /folders/{folderId}": (1, 12.5),
        "GET /billing": (2, 25.0),
        "POST /folders/{folderId}/restore": (1, 12.5),
        "other": (0, 0),
    }
    # Storage 600, 600, 100, 100, 600, 600: symmetric, so flat at the mean 433.33.
    # Requests 4, 0, 2, 0, 2, 0: slope -0.46, a fall of 2.29 on a mean of 1.33; below 0 next.
    assert data["projections"] == projections(("stable", 433, 433), ("decreasing", 8, 0))


def test_parts_of_an_unfinished_multipart_upload_are_pending_until_it_completes(
    api, clock, settings
):
    settings.MULTIPART_MIN_PART_SIZE = 1024
    data = b"\0" * 2500
    clock.move_to(utc("2028-02-28 10:05"))
    start = {"name": "big.bin", "size": 2500, "partSize": 1024, "type": "application/octet-stream"}
    started = data_of(api.post("/v1/files/multipart-upload-start", start, format="json"))
    urls = {part["partNumber"]: part["url"] for part in started["parts"]}
    etags = {}

    def put(number: int) -> None:
        chunk = data[(number - 1) * 1024 : number * 1024]
        answer = data_of(api.put(urls[number], data=chunk, content_type="application/octet-stream"))
        etags[number] = answer["etag"]

    clock.move_to(utc("2028-02-28 10:10"))
    put(1)
    clock.move_to(utc("2028-02-28 10:15"))
    put(3)
    clock.move_to(utc("2028-02-28 10:20"))
    usage = data_of(api.get("/v1/billing"))["currentUsage"]
    assert (usage["pendingUploads"], usage["storage"], usage["files"]) == (1024 + 452, 0, 0)
    assert usage["trash"] == 0

    clock.move_to(utc("2028-02-28 11:05"))
    put(2)
    clock.move_to(utc("2028-02-28 11:10"))
    parts = [{"partNumber": n, "etag": etags[n]} for n in (1, 2, 3)]
    body = {"uploadId": started["uploadId"], "parts": parts}
    data_of(api.post("/v1/files/multipart-upload-complete", body, format="json"))
    clock.move_to(utc("2028-02-28 11:15"))
    usage = data_of(api.get("/v1/billing"))["currentUsage"]
    assert (usage["pendingUploads"], usage["storage"], usage["files"]) == (0, 2500, 1)

    clock.move_to(utc("2028-02-28 12:30"))
    report_data = report(
        api, start="2028-02-28T10:00:00Z", end="2028-02-28T12:00:00Z", granularity="hour"
    )
    assert timeline(report_data) == [
        row("2028-02-28 10:00", 0, 0.0, 4, 0.4, 0, 0.0, up=1476),
        row("2028-02-28 11:00", 2500, 0.0, 3, 0.3, 1, 100.0, up=1024),
    ]
    assert summary(report_data)["bandwidth"] == {"upload": 2500, "download": 0}
    assert report_data["breakdown"]["byFileType"] == by_type(other=(1, 2500, 100.0))
    assert endpoints(report_data) == {
        "POST /files/multipart-upload-start": (1, 14.29),
        "PUT /files/multipart-upload/{uploadId}/parts/{partNumber}": (3, 42.86),
        "POST /files/multipart-upload-complete": (1, 14.29),
        "GET /billing": (2, 28.57),
        "other": (0, 0),
    }


# --- who is counted ----------------------------------------------------------------------------


def test_refused_requests_count_and_other_callers_do_not(api, org, client_for, clock):
    clock.move_to(utc("2028-02-28 10:10"))
    reader = client_for(ApiKeyFactory(organisation=org, permissions=["files:read"]))
    error_of(reader.get("/v1/billing/usage"), 403, "ACCESS_DENIED")
    error_of(reader.get("/v1/billing"), 403, "ACCESS_DENIED")
    error_of(reader.get("/v1/nope"), 404, "NOT_FOUND")
    billing_only = client_for(ApiKeyFactory(organisation=org, permissions=["billing:read"]))
    data_of(billing_only.get("/v1/billing"))
    client_for(ApiKeyFactory()).get("/v1/keys")  # another organisation
    client_for(None).get("/v1/keys")  # no key: counts for nobody
    client_for("ak_not-a-real-key").get("/v1/files")

    clock.move_to(utc("2028-02-28 12:00"))
    data = report(api, start="2028-02-28T10:00:00Z", end="2028-02-28T11:00:00Z", granularity="hour")
    assert endpoints(data) == {
        "GET /billing/usage": (1, 25.0),
        "GET /billing": (2, 50.0),
        "other": (1, 25.0),
    }
    assert data["breakdown"]["byHour"] == by_hour({10: 4})
    assert (
        data_of(billing_only.get("/v1/billing/usage", {"period": "day"}))["period"]["granularity"]
        == "hour"
    )


# --- errors ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2028-03-01T10:00:00Z", "2028-03-01T09:00:00Z"),
        ("2028-03-01T10:00:00Z", "2028-03-01T10:00:00Z"),
    ],
)
def test_an_end_not_after_the_start_is_invalid_date_range(api, start, end):
    error = error_of(
        api.get("/v1/billing/usage", {"start": start, "end": end}), 400, "INVALID_DATE_RANGE"
    )
    details = error["details"]
    assert instant(details["start"]) == instant(start)
    assert instant(details["end"]) == instant(end)
    assert isinstance(details["reason"], str) and details["reason"]


@pytest.mark.parametrize(
    ("start", "end", "requested"),
    [
        ("2028-01-01T00:00:00Z", "2029-01-01T00:00:00Z", 366),  # a leap year
        ("2027-01-01T00:00:00Z", "2028-01-01T01:00:00Z", 366),  # 365 days and an hour
        ("2027-01-01T00:00:00Z", "2028-02-05T00:00:00Z", 400),
    ],
)
def test_more_than_365_days_is_date_range_too_large(api, start, end, requested):
    response = api.get("/v1/billing/usage", {"start": start, "end": end})
    error = error_of(response, 400, "DATE_RANGE_TOO_LARGE")
    assert error["details"] == {"maxDays": 365, "requestedDays": requested}


def test_exactly_365_days_is_allowed(api):
    data = report(
        api, start="2027-01-01T00:00:00Z", end="2028-01-01T00:00:00Z", granularity="month"
    )
    assert dates(data) == [utc(f"2027-{month:02}-01") for month in range(1, 13)]


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"period": "fortnight"}, "period"),
        ({"granularity": "minute"}, "granularity"),
        ({"start": "yesterday"}, "start"),
        ({"start": "2028-02-28T00:00:00Z", "end": "2028-13-01"}, "end"),
        ({"start": "2027-02-29", "end": "2027-03-02"}, "start"),  # 2027 is not a leap year
        # INVALID_PARAMETERS comes before INVALID_DATE_RANGE.
        ({"granularity": "minute", "start": "2028-03-02", "end": "2028-03-01"}, "granularity"),
    ],
)
def test_unknown_values_and_unparseable_dates_are_invalid_parameters(api, params, named):
    error = error_of(api.get("/v1/billing/usage", params), 400, "INVALID_PARAMETERS")
    assert named in error["details"]


def test_a_key_without_billing_read_is_access_denied(client_for, org):
    key = ApiKeyFactory(organisation=org, permissions=["files:read", "files:write", "keys:read"])
    error_of(client_for(key).get("/v1/billing/usage"), 403, "ACCESS_DENIED")
