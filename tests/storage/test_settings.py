"""Settings read from the environment."""

from __future__ import annotations

from storage_service.settings import database_config

POSTGRESQL = "postgres://service@db.example:5432/storage"


def test_prepared_statements_can_be_turned_off_for_a_pooler_that_cannot_keep_them(monkeypatch):
    assert database_config(POSTGRESQL, None)["OPTIONS"]["prepare_threshold"] == 5
    monkeypatch.setenv("DATABASE_PREPARED_STATEMENTS", "0")
    options = database_config(POSTGRESQL, None)["OPTIONS"]
    assert options["prepare_threshold"] is None
    assert options["server_side_binding"] is True
