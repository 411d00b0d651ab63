"""Minimal Django settings to exercise shared/ against a real database (SQLite or PostgreSQL)."""

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parents[2]
SECRET_KEY = "shared-tests-only"
USE_TZ = True
INSTALLED_APPS = ["tests.shared.counters"]

_url = os.environ.get("DATABASE_URL")
if _url:
    DATABASES = {"default": dj_database_url.parse(_url)}
    _name = DATABASES["default"]["NAME"]
    DATABASES["default"]["TEST"] = {"NAME": f"test_{_name}_shared_{os.getpid()}"}
else:
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(BASE_DIR / "var" / "shared.sqlite3"),
            # A file, not memory, so that several processes share it.
            "TEST": {"NAME": str(BASE_DIR / "var" / f"test_shared_{os.getpid()}.sqlite3")},
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
REDIS_URL = os.environ.get("REDIS_URL", "")
