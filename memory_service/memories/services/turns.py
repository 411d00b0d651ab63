"""Writes of a finished turn: its transcript, and the memories learnt from it."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from memory_service.accounts.models import Organisation
from memory_service.extraction.secrets import redact
from memory_service.memories.models import TURN, Turn
from memory_service.memories.retry import retry_on_conflict
from memory_service.memories.services.batch import Origin, StoreOutcome, candidates_store
from memory_service.memories.what_to_learn import turn_candidates


def turn_learn(
    *,
    org: Organisation,
    user_message: str,
    assistant_response: str,
    session_id: str = "",
    now: datetime,
) -> tuple[Turn, StoreOutcome]:
    """Extract candidates from a finished turn, store the durable ones, keep the transcript."""
    # Before the transaction: a slow provider must not hold the database's locks.
    learnt = turn_candidates(user_message, assistant_response)

    @retry_on_conflict
    def write() -> tuple[Turn, StoreOutcome]:
        result = StoreOutcome(rejected=list(learnt.rejected))
        with transaction.atomic():
            turn = Turn.objects.create(
                organisation=org,
                session_id=session_id,
                user_message=redact(user_message),
                assistant_response=redact(assistant_response),
                lookup=learnt.lookup,
                created_at=now,
            )
            origin = Origin(source=TURN, session_id=session_id)
            items = [(candidate, origin) for candidate in learnt.candidates]
            candidates_store(org=org, items=items, outcome=result, now=now)
            turn.counts = result.counts()
            turn.save(update_fields=["counts"])
        return turn, result

    return write()
