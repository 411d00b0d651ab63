"""Check a labelled batch against LABELLING.md's format: ``python tests/data/check_format.py FILE``.

Writers of blind batches get this file and LABELLING.md, nothing else of the project.
"""

from __future__ import annotations

import json
import sys

KINDS = {"fact", "preference", "instruction", "lesson", "pattern"}
REASONS = {"small talk", "too vague", "too long", "question", "hypothetical", "transient", "secret"}
CATEGORIES = {
    "durable", "mixed", "question", "small talk", "transient", "request",
    "hypothetical", "vague", "secret", "pasted", "too long",
}  # fmt: skip


def problems(lines: list[str]) -> list[str]:
    """Return what breaks the format, one line each."""
    found: list[str] = []
    ids: set[object] = set()
    subjects: dict[object, set[object]] = {}
    for number, line in enumerate(lines, 1):
        where = f"line {number}"
        try:
            turn = json.loads(line)
        except json.JSONDecodeError as error:
            found.append(f"{where}: not JSON ({error})")
            continue
        for key in ("id", "persona", "userMessage", "assistantResponse", "lookup", "category"):
            if key not in turn:
                found.append(f"{where}: no {key}")
        if turn.get("id") in ids:
            found.append(f"{where}: id {turn.get('id')} repeated")
        ids.add(turn.get("id"))
        if turn.get("category") not in CATEGORIES:
            found.append(f"{where}: category {turn.get('category')!r}")
        message = turn.get("userMessage", "")
        expected = turn.get("expected", {})
        stored, rejected = expected.get("stored"), expected.get("rejected")
        if not isinstance(stored, list) or not isinstance(rejected, list):
            found.append(f"{where}: expected.stored and expected.rejected must be lists")
            continue
        for item in stored:
            if item.get("content") not in message:
                found.append(f"{where}: stored content is not a substring: {item.get('content')!r}")
            if item.get("kind") not in KINDS:
                found.append(f"{where}: kind {item.get('kind')!r}")
            if not item.get("subject") or item["subject"] != item["subject"].lower():
                found.append(f"{where}: subject must be short lowercase: {item.get('subject')!r}")
            subjects.setdefault(turn.get("persona"), set()).add(item.get("subject"))
        for item in rejected:
            if item.get("content") not in message:
                found.append(f"{where}: rejected content not a substring: {item.get('content')!r}")
            if item.get("reason") not in REASONS:
                found.append(f"{where}: reason {item.get('reason')!r}")
        if turn.get("lookup") and stored:
            found.append(f"{where}: a lookup stores nothing")
        if turn.get("lookup") and any(i.get("reason") != "question" for i in rejected):
            found.append(f"{where}: every item of a lookup is rejected as question")
        relates = turn.get("relatesTo")
        if relates is not None:
            if relates.get("type") not in {"contradiction", "restatement"}:
                found.append(f"{where}: relatesTo.type {relates.get('type')!r}")
            if relates.get("turn") not in ids:
                found.append(f"{where}: relatesTo.turn must name an earlier turn")
            if relates.get("subject") not in {i.get("subject") for i in stored}:
                found.append(f"{where}: relatesTo.subject must be the subject of a stored item")
    return found


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        issues = problems(handle.read().splitlines())
    print("\n".join(issues) or "ok")
    sys.exit(1 if issues else 0)
