"""The storage service's checks, each through instance A and instance B of ``Service``.

Each claim gets an organisation of its own, so that one check's requests never move another's
figures: the limited one ends refused for the rest of the hour, and the counted one must see
exactly the requests this module sent it.
"""

from __future__ import annotations

import hashlib
import http.client
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from urllib.parse import urlsplit

from tests.bench import client
from tests.bench.client import Api
from tests.scale_out.cluster import WORK, Service, log
from tests.scale_out.traffic import Answer, burst, fetch, send
from tests.scale_out.verdicts import Check, weighed

# The contract's figure for the free plan, the smallest; settings offer no smaller one.
FREE_REQUESTS_PER_HOUR = 1_000
# Client threads per instance in a burst: as many as an instance serves at once (2 workers x 4).
BURST_THREADS = 8
CHEAP = "/v1/files?limit=1"
# A burst that started in one hour and ended in the next would count into two windows.
LIMIT_BURST_SECONDS = 60
USAGE_REQUESTS_EACH = 300
USAGE_PATHS = (CHEAP, "/v1/folders", "/v1/billing", "/v1/keys")
USAGE_REPORT = "/v1/billing/usage?period=day"
# One request in this many of the usage burst is a report, whose flush races the other
# instance's flushes and the counting of requests under way.
REPORT_EVERY = 25
# Requests with a key through fresh connections, so that more of an instance's workers have it
# in their key cache.
KEY_USES = 6
MIB = 1024 * 1024
# Past the 2 MiB an upload may hold in memory: spilled to disk, hashed, then sent to the store.
FILE_SIZE = 3 * MIB


@dataclass(frozen=True)
class Keys:
    limited: str  # free plan: the check spends its whole hourly allowance
    counted: str  # its usage is compared with what was sent
    shared: str  # revocation, folders, files


def make_keys(service: Service) -> Keys:
    with ThreadPoolExecutor(3) as pool:
        limited = pool.submit(service.createkey, "limited", "--plan", "free")
        counted = pool.submit(service.createkey, "counted", "--plan", "production")
        shared = pool.submit(service.createkey, "shared", "--plan", "production")
        return Keys(limited.result(), counted.result(), shared.result())


def checks(service: Service, keys: Keys) -> list[tuple[str, Check]]:
    claims = [
        (hourly_limit, "storage: the hourly limit holds exactly across A and B"),
        (usage_counts, "storage: usage counts every request sent to A and B"),
        (key_revocation, "storage: a key revoked through A is refused by B at once"),
        (folder_deletion, "storage: a folder deleted through A is gone on B"),
        (file_transfer, "storage: a file uploaded through B downloads through A"),
    ]
    return [(claim, partial(check, service, keys)) for check, claim in claims]


def wait_for_room_in_hour(seconds: int) -> None:
    left = 3600 - time.time() % 3600
    if left < seconds:
        log(f"waiting {left:.0f} s for the next hour's rate-limit window")
        time.sleep(left + 1)


def hourly_limit(service: Service, keys: Keys) -> tuple[bool, str]:
    apis = service.apis(keys.limited)
    wait_for_room_in_hour(LIMIT_BURST_SECONDS)
    answers = burst(
        apis,
        FREE_REQUESTS_PER_HOUR // 2,
        BURST_THREADS,
        lambda api, conn, _: send(api, "GET", CHEAP, conn=conn),
    )
    after = [send(api, "GET", CHEAP) for api in apis]
    every = [answer for instance in answers for answer in instance]
    statuses = Counter(answer.status for answer in every)
    remaining = sorted(int(answer.headers["X-RateLimit-Remaining"]) for answer in every)
    limits = {answer.headers["X-RateLimit-Limit"] for answer in [*every, *after]}
    resets = {answer.headers["X-RateLimit-Reset"] for answer in [*every, *after]}
    facts = [
        f"{len(every)} requests ({len(answers[0])} via A, {len(answers[1])} via B) answered "
        + ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items())),
        f"X-RateLimit-Remaining took {len(set(remaining))} distinct values "
        f"{remaining[0]}..{remaining[-1]}",
        f"then via A {after[0].described()}, via B {after[1].described()}",
        "with X-RateLimit-Limit/Remaining/Reset "
        + " and ".join(
            "/".join(a.headers[f"X-RateLimit-{n}"] for n in ("Limit", "Remaining", "Reset"))
            for a in after
        ),
    ]
    problems = []
    if statuses != {200: FREE_REQUESTS_PER_HOUR}:
        problems.append(f"not all {FREE_REQUESTS_PER_HOUR} within the limit were answered 200")
    if remaining != list(range(FREE_REQUESTS_PER_HOUR)):
        problems.append("Remaining did not count down once per request across both instances")
    for name, answer in zip("AB", after, strict=True):
        if answer.status != 429 or answer.error_code() != "RATE_LIMITED":
            problems.append(f"the next request via {name} was not refused with RATE_LIMITED")
        if answer.headers["X-RateLimit-Remaining"] != "0":
            problems.append(f"Remaining via {name} is not 0")
    if limits != {str(FREE_REQUESTS_PER_HOUR)}:
        problems.append(f"X-RateLimit-Limit values {sorted(limits)}")
    if len(resets) != 1:
        problems.append(f"X-RateLimit-Reset values {sorted(resets)}")
    return weighed(facts, problems)


def usage_counts(service: Service, keys: Keys) -> tuple[bool, str]:
    apis = service.apis(keys.counted)

    def request(api: Api, conn: http.client.HTTPConnection, number: int) -> Answer:
        if number % REPORT_EVERY == REPORT_EVERY - 1:
            return send(api, "GET", USAGE_REPORT, conn=conn)
        return send(api, "GET", USAGE_PATHS[number % len(USAGE_PATHS)], conn=conn)

    answers = burst(apis, USAGE_REQUESTS_EACH, BURST_THREADS, request)
    sent = sum(len(instance) for instance in answers)
    statuses = Counter(answer.status for instance in answers for answer in instance)
    totals = []
    for api in apis:  # each report counts itself: A's sees one more, B's two
        report = send(api, "GET", USAGE_REPORT)
        sent += 1
        totals.append((report.json()["data"]["summary"]["requests"]["total"], sent))
    reports = (USAGE_REQUESTS_EACH // REPORT_EVERY) * len(apis)
    facts = [
        f"{sent - len(apis)} requests ({len(answers[0])} via A, {len(answers[1])} via B, "
        f"{reports} of them reports flushing concurrently) answered "
        + ", ".join(f"{count} x {status}" for status, count in sorted(statuses.items())),
        "then summary.requests.total "
        + " and ".join(
            f"{total} via {name} ({expected} sent)"
            for name, (total, expected) in zip("AB", totals, strict=True)
        ),
    ]
    problems = []
    if set(statuses) != {200}:
        problems.append("some burst requests failed")
    problems += [
        f"the report via {name} counted {total}, not {expected}"
        for name, (total, expected) in zip("AB", totals, strict=True)
        if total != expected
    ]
    return weighed(facts, problems)


def key_revocation(service: Service, keys: Keys) -> tuple[bool, str]:
    admin_a, _ = service.apis(keys.shared)
    made = send(admin_a, "POST", "/v1/keys", {"name": "revoked across instances"})
    record = made.json()["data"]["key"]
    doomed_a, doomed_b = service.apis(record["fullKey"])
    before = Counter(send(doomed_b, "GET", CHEAP).status for _ in range(KEY_USES))
    revoked = send(admin_a, "DELETE", f"/v1/keys/{record['id']}")
    revoked_at = time.perf_counter()
    next_b = send(doomed_b, "GET", CHEAP)
    gap_ms = (time.perf_counter() - revoked_at) * 1000
    later = [send(doomed_b, "GET", CHEAP) for _ in range(KEY_USES - 1)]
    later.append(send(doomed_a, "GET", CHEAP))
    facts = [
        f"the new key answered {dict(before)} via B (fresh connections)",
        f"DELETE /v1/keys/<id> via A {revoked.described()}",
        f"the very next request via B {next_b.described()} ({gap_ms:.0f} ms after)",
        f"{KEY_USES - 1} more via B and one via A: "
        + ", ".join(f"{n} x {s}" for s, n in Counter(a.described() for a in later).items()),
    ]
    problems = []
    if before != {200: KEY_USES}:
        problems.append("the new key did not work via B before its revocation")
    if revoked.status != 200:
        problems.append("the revocation failed")
    if any(a.status != 401 or a.error_code() != "INVALID_API_KEY" for a in [next_b, *later]):
        problems.append("the revoked key was not refused with 401 INVALID_API_KEY everywhere")
    return weighed(facts, problems)


def folder_deletion(service: Service, keys: Keys) -> tuple[bool, str]:
    a, b = service.apis(keys.shared)
    made = send(a, "POST", "/v1/folders", {"name": "scale-out"})
    folder_id = made.json()["data"]["folder"]["folderId"]
    seen = send(b, "GET", f"/v1/folders/{folder_id}")
    deleted = send(a, "DELETE", f"/v1/folders/{folder_id}")
    gone = send(b, "GET", f"/v1/folders/{folder_id}")
    listed = send(b, "GET", "/v1/folders?limit=100").json()["data"]["folders"]
    still_listed = any(f["folderId"] == folder_id for f in listed)
    facts = [
        f"POST /v1/folders via A {made.described()}",
        f"GET via B {seen.described()}",
        f"DELETE via A {deleted.described()}",
        f"then GET via B {gone.described()}, "
        f"{'still' if still_listed else 'not'} in GET /v1/folders via B",
    ]
    problems = []
    if (made.status, seen.status, deleted.status) != (200, 200, 200):
        problems.append("creating, seeing or deleting the folder failed")
    if gone.status != 404 or gone.error_code() != "FOLDER_NOT_FOUND":
        problems.append("B still answers for the deleted folder")
    if still_listed:
        problems.append("B still lists the deleted folder")
    return weighed(facts, problems)


def file_transfer(service: Service, keys: Keys) -> tuple[bool, str]:
    a, b = service.apis(keys.shared)
    source = client.source_create(str(WORK / "upload.bin"), FILE_SIZE)
    uploaded = client.upload_single(b, source, "scale-out.bin").file
    record = send(a, "GET", f"/v1/files/{uploaded['id']}")
    link = record.json()["data"]["file"]["url"]
    answer = fetch(link)
    store = urlsplit(service.env["STORAGE_S3_ENDPOINT_URL"]).netloc
    location = answer.headers.get("Location", "")
    redirected = answer.status in {301, 302, 303, 307} and urlsplit(location).netloc == store
    if redirected:
        answer = fetch(location)
    digest = hashlib.sha256(answer.body).hexdigest()
    facts = [
        f"{FILE_SIZE:,} bytes uploaded via B",
        f"GET /v1/files/<id> via A {record.described()}",
        f"its link on :{urlsplit(link).port} "
        + ("redirected to the object store" if redirected else "answered itself"),
        f"which answered {answer.status} with {len(answer.body):,} bytes, "
        f"SHA-256 {'equal' if digest == source.sha256 else 'different'}",
    ]
    problems = []
    if urlsplit(link).port != a.port:
        problems.append("the link does not point at A")
    if not redirected:
        problems.append("A did not send the download to the object store")
    if answer.status != 200 or digest != source.sha256:
        problems.append("the bytes downloaded are not the bytes uploaded")
    return weighed(facts, problems)
