"""Gunicorn settings for the storage service; bind with -b or GUNICORN_CMD_ARGS."""

import ipaddress
import multiprocessing
import os

workers = int(os.environ.get("WEB_CONCURRENCY", min(4, multiprocessing.cpu_count() + 1)))
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# gthread minus a deadlock in its quick shutdown (SIGINT, SIGQUIT): shared/gunicorn_worker.py
worker_class = "shared.gunicorn_worker.ThreadWorker"
# Uploads can be slow; a worker streaming a large body must not be killed mid-request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "300"))
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
# Requests without a key (signed download links among them) are rate-limited per address, and
# behind a proxy every request comes from the proxy's. Naming the header the proxy puts the
# client's address in (X-Real-IP in deploy/storage/nginx.conf) makes that address REMOTE_ADDR,
# from a peer believed as above only: anyone else could name any address. Unset (make run): the
# peer's own address.
_client_address_header = os.environ.get("CLIENT_ADDRESS_HEADER", "")


def _address(text):
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


class ClientAddressFromProxy:
    """Set REMOTE_ADDR from the trusted proxy's header; the rest is the wrapped application."""

    def __init__(self, application, header, trusted):
        self.application = application
        self.key = "HTTP_" + header.upper().replace("-", "_")
        self.any_peer = "*" in trusted
        self.trusted = [ipaddress.ip_network(peer) for peer in trusted if peer != "*"]

    def __call__(self, environ, start_response):
        client = _address(environ.get(self.key, ""))
        if client is not None and self._trusted(environ.get("REMOTE_ADDR", "")):
            environ["REMOTE_ADDR"] = str(client)
        return self.application(environ, start_response)

    def _trusted(self, peer):
        if self.any_peer or not peer:  # no address: a unix socket, as gunicorn trusts it
            return True
        address = _address(peer)
        return address is not None and any(address in network for network in self.trusted)

    def __getattr__(self, name):
        return getattr(self.application, name)  # early_error (shared/gunicorn_worker.py)


def post_worker_init(worker):
    if _client_address_header:
        worker.wsgi = ClientAddressFromProxy(
            worker.wsgi, _client_address_header, worker.cfg.forwarded_allow_ips
        )
