"""Gunicorn settings for the storage service; bind with -b or GUNICORN_CMD_ARGS."""

import multiprocessing
import os

workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
worker_class = "gthread"
# Uploads can be slow; a worker streaming a large body must not be killed mid-request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "300"))
graceful_timeout = 30
accesslog = "-"
# The default access log format has no headers, so Authorization never reaches the log.
errorlog = "-"
# gunicornc is not used; without this, two services on one host would share one control socket.
control_socket_disable = True
