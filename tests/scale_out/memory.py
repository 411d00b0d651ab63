"""The memory service's check, through instance A and instance B of ``Service``."""

from __future__ import annotations

import http.client
from collections import Counter
from functools import partial

from tests.bench.client import Api
from tests.scale_out.cluster import Service
from tests.scale_out.traffic import Answer, burst, send
from tests.scale_out.verdicts import Check, weighed

# A durable fact, with no secret and no question in it, that the service stores as it is.
STATEMENT = "The staging database of the billing team runs on the host pg-staging-3."
# Sent at once, half to each instance, each from a thread of its own.
RESTATEMENTS = 20


def make_key(service: Service) -> str:
    return service.createkey("restating")


def checks(service: Service, key: str) -> list[tuple[str, Check]]:
    return [
        (
            "memory: concurrent restatements sent to A and B leave one memory",
            partial(restatements, service, key),
        )
    ]


def restatements(service: Service, key: str) -> tuple[bool, str]:
    apis = service.apis(key)
    each = RESTATEMENTS // len(apis)

    def store(api: Api, conn: http.client.HTTPConnection, _: int) -> Answer:
        return send(api, "POST", "/api/v1/memories", {"content": STATEMENT}, conn=conn)

    answers = [answer for instance in burst(apis, each, each, store) for answer in instance]
    statuses = Counter(answer.described() for answer in answers)
    filed = [answer.json() for answer in answers if answer.status == 200]
    outcomes: Counter[str] = Counter()
    for body in filed:
        outcomes.update({name: body["counts"][name] for name in ("stored", "merged", "rejected")})
    named = {memory["id"] for body in filed for memory in body["memories"]}
    held = []
    for api in apis:
        listing = send(api, "GET", "/api/v1/memories").json()
        matching = [m for m in listing["memories"] if m["content"] == STATEMENT]
        held.append((listing["counts"]["total"], matching))
    facts = [
        f"{len(answers)} POST /api/v1/memories ({each} via A, {each} via B) answered "
        + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())),
        "counts " + ", ".join(f"{name} {n}" for name, n in sorted(outcomes.items())),
        f"answers name {len(named)} memory id(s)",
        "then GET /api/v1/memories "
        + " and ".join(
            f"via {name}: total {total}, {len(matching)} with the content"
            + (f" (timesSeen {matching[0]['timesSeen']})" if len(matching) == 1 else "")
            for name, (total, matching) in zip("AB", held, strict=True)
        ),
    ]
    problems = []
    if len(filed) != RESTATEMENTS:
        problems.append("some statements were not filed")
    if outcomes["stored"] != 1 or outcomes["stored"] + outcomes["merged"] != RESTATEMENTS:
        problems.append("not one stored and the rest merged")
    if len(named) != 1:
        problems.append("the answers name more than one memory")
    for name, (total, matching) in zip("AB", held, strict=True):
        if total != 1 or len(matching) != 1:
            problems.append(f"{name} does not hold exactly one memory")
        elif matching[0]["timesSeen"] != RESTATEMENTS:
            problems.append(f"{name}'s memory was not seen {RESTATEMENTS} times")
    return weighed(facts, problems)
