"""Who may read ``/metrics``: a bearer of ``METRICS_TOKEN``, or a client address in
``METRICS_ALLOW_NETWORKS``. Anyone else is told nothing is there (404)."""

from __future__ import annotations

import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from chickenfoot.env import Network


def _bearer(request: HttpRequest) -> str | None:
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return None
    return credentials.strip()


def token_accepted(request: HttpRequest) -> bool:
    """``Authorization: Bearer <METRICS_TOKEN>``, compared in constant time; no token is
    accepted while ``METRICS_TOKEN`` is unset."""
    expected: str = settings.METRICS_TOKEN
    given = _bearer(request)
    if not expected or given is None:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


def address_allowed(request: HttpRequest) -> bool:
    """The connection's own peer address (``REMOTE_ADDR``, never ``X-Forwarded-For``, which a
    client writes) is in one of ``METRICS_ALLOW_NETWORKS``."""
    networks: list[Network] = settings.METRICS_ALLOW_NETWORKS
    if not networks:
        return False
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:
        return False
    return any(address in network for network in networks)


def metrics_readable(request: HttpRequest) -> bool:
    """May this request read the metrics?"""
    return token_accepted(request) or address_allowed(request)
