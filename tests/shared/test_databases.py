"""Both services' database settings from DATABASE_URL."""

from __future__ import annotations

from pathlib import Path

from shared.databases import database_config

POSTGRESQL = "postgres://service@db.example:5432/storage"


def test_postgresql_prepares_repeated_statements_unless_a_pooler_cannot_keep_them():
    config = database_config(POSTGRESQL, Path("unused.sqlite3"), service="storage")
    assert config["ENGINE"] == "shared.postgresql"
    assert config["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": 5}
    off = database_config(
        POSTGRESQL, Path("unused.sqlite3"), service="storage", prepared_statements=False
    )
    assert off["OPTIONS"] == {"server_side_binding": True, "prepare_threshold": None}


def test_each_service_tests_on_its_own_database_of_one_server():
    names = {
        database_config(POSTGRESQL, Path("x"), service=service)["TEST"]["NAME"]
        for service in ("storage", "memory")
    }
    assert names == {"test_storage_storage", "test_storage_memory"}


def test_without_a_url_the_embedded_sqlite_waits_for_locks_instead_of_failing(tmp_path):
    config = database_config("", tmp_path / "var" / "memory.sqlite3", service="memory")
    assert config["NAME"] == str(tmp_path / "var" / "memory.sqlite3")
    assert (tmp_path / "var").is_dir()
    assert config["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert config["OPTIONS"]["timeout"] == 20
    assert "journal_mode=WAL" in config["OPTIONS"]["init_command"]
    assert config["CONN_MAX_AGE"] == 0
