"""Gunicorn settings for the storage service; bind with -b or GUNICORN_CMD_ARGS."""

import ipaddress
import os

from shared.gunicorn_settings import *  # noqa: F403

# Uploads can be slow; a worker streaming a large body must not be killed mid-request.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "300"))
# Requests without a key (signed download links among them) are rate-limited per address, and
# behind a proxy every request comes from the proxy's. Naming the header the proxy puts the
# client's address in (X-Real-IP in deploy/storage/nginx.conf) makes that address REMOTE_ADDR,
# from a peer FORWARDED_ALLOW_IPS believes only: anyone else could name any address. Unset
# (make run): the peer's own address.
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
