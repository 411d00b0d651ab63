"""Gunicorn settings for the memory service; bind with -b or GUNICORN_CMD_ARGS."""

import os

from shared.gunicorn_settings import *  # noqa: F403

timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
