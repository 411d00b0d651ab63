"""What both services' gunicorn settings share (``deploy/<service>/gunicorn.conf.py`` star-import
this, then set what differs): workers, the worker class, logging, limits, trusted proxies."""

import multiprocessing
import os

workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# gthread minus a deadlock in its quick shutdown (SIGINT, SIGQUIT): shared/gunicorn_worker.py
worker_class = "shared.gunicorn_worker.ThreadWorker"
graceful_timeout = 30
accesslog = "-"
# The default access log format has no headers, so Authorization never reaches the log; this
# logger also drops credential headers from the atoms and redacts signed download links.
logger_class = "shared.access_log.RedactingLogger"
errorlog = "-"
# A request line or header field as long as nginx's large_client_header_buffers (8 KiB) lets
# through reaches the application, instead of a refusal here that the proxy let pass.
limit_request_line = 8190
limit_request_field_size = 8190
# gunicornc is not used; without this, two services on one host would share one control socket.
control_socket_disable = True
# X-Forwarded-Proto (https, from the proxy that holds TLS) is believed from these peers only, and
# from anything on the unix socket the deploy files bind (deploy/*/nginx.conf). gunicorn's default.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
