"""Requests to outside addresses: each connection made to an address just checked, no redirect.

``outside_session()`` is a ``requests`` session whose transport adapter, for every request,
checks the URL (``chickenfoot.outside_addresses``), resolves its name, checks every address and
has urllib3 connect to the first of them, while TLS still asks for the name (SNI) and checks
the certificate against it, and the ``Host`` header still names it. urllib3 never resolves the
name itself, so an answer that changed since the check (DNS rebinding) is never used. A refused
address raises ``OutsideAddressRefused`` before any connection; a name that does not resolve,
``socket.gaierror`` (an ``OSError``, as requests' own connection errors are).

The session follows no redirect (a 3xx is the answer), reads no proxy, certificate bundle or
.netrc from the environment, and is for one use: a send opens one and closes it.

requests-hardened (Saleor's) pins connections the same way, through the same adapter hook; it
checks only the first address a name has, against ranges of its own, through a resolver that
cannot be handed in. Here the check is the one that stored the URL, over every address.
"""

from __future__ import annotations

from typing import Any

import requests
from requests.adapters import HTTPAdapter
from requests.structures import CaseInsensitiveDict

from chickenfoot.outside_addresses import (
    Resolver,
    loopback_allowed,
    outside_addresses,
    outside_url_parse,
)


class PinnedAdapter(HTTPAdapter):
    """Connects to the address it checked for the request's host (see the module)."""

    def __init__(self, *, resolve: Resolver | None, loopback: bool) -> None:
        self.resolve = resolve
        self.loopback = loopback
        super().__init__(max_retries=0)

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        target = outside_url_parse(str(request.url), loopback=self.loopback)
        addresses = outside_addresses(
            target.host, target.port, resolve=self.resolve, loopback=self.loopback
        )
        address = addresses[0]
        request.headers = CaseInsensitiveDict(request.headers or {})
        name = f"[{target.host}]" if ":" in target.host else target.host
        default_port = 443 if target.scheme == "https" else 80
        request.headers["Host"] = name if target.port == default_port else f"{name}:{target.port}"
        if target.scheme == "https":
            pool_kwargs["server_hostname"] = target.host
            pool_kwargs["assert_hostname"] = target.host
        host_params["host"] = f"[{address}]" if address.version == 6 else str(address)
        host_params["port"] = target.port
        return host_params, pool_kwargs


class OutsideSession(requests.Session):
    """A session that never follows a redirect (see the module)."""

    def get_redirect_target(self, resp: requests.Response) -> None:
        return None


def outside_session(
    *, resolve: Resolver | None = None, loopback: bool | None = None, verify: bool | str = True
) -> requests.Session:
    """A session for requests to outside addresses; ``verify``: True (the system's
    certificate authorities) or a CA bundle's path; ``resolve``: the system's resolver, or
    one a test hands in."""
    loopback = loopback_allowed() if loopback is None else loopback
    session = OutsideSession()
    session.trust_env = False
    session.verify = verify
    adapter = PinnedAdapter(resolve=resolve, loopback=loopback)
    session.mount("https://", adapter)
    session.mount("http://", adapter)
    return session
