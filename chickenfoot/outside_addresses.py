"""Outside addresses: what the server itself posts to (a Web Push endpoint) names a public host.

A URL that a client hands the server is an outside address only if it is ``https``, names its
host (no IP literal, no user, a name of at least two labels whose last is no number) and that
name resolves to public unicast addresses and nothing else. It is checked when it is stored
(``outside_url_check``) and again each time it is used, where ``chickenfoot.outside_http``
resolves the name, checks every address and connects to the one it checked, so that a name
resolving elsewhere by then (DNS rebinding) reaches nothing inside.

Public unicast: not loopback, private (RFC 1918), link-local, CGNAT (100.64/10), "this network"
(0/8), multicast, broadcast, reserved (240/4), documentation and benchmarking ranges, the IETF's
special ranges; for IPv6 only global unicast (2000::/3) outside its special ranges (Teredo,
6to4, ORCHID, documentation), and the IPv6 forms that carry an IPv4 address (IPv4-mapped,
NAT64) only when that address is public. Python's ``ipaddress`` properties are asked too, but
the ranges are spelled out here: what ``is_global`` and ``is_private`` include has changed
between Python releases, and ``is_global`` takes IPv4 multicast for global.

``OUTSIDE_LOOPBACK_FOR_TESTS`` (which production refuses to start with) lets loopback through,
by name or address and over http too: the tests' own push services listen there.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
#: ``resolve(host, port)``: the addresses a name has (``socket.gaierror`` when it has none).
Resolver = Callable[[str, int], Sequence[IPAddress]]

#: IPv4 ranges that are no public unicast address (the IANA special-purpose registry's ranges
#: that are not globally reachable, with multicast, reserved and broadcast).
INSIDE_V4 = tuple(
    ipaddress.IPv4Network(network)
    for network in (
        "0.0.0.0/8",  # this network
        "10.0.0.0/8",  # private
        "100.64.0.0/10",  # shared address space (CGNAT)
        "127.0.0.0/8",  # loopback
        "169.254.0.0/16",  # link-local (cloud metadata services)
        "172.16.0.0/12",  # private
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",  # documentation
        "192.88.99.0/24",  # 6to4 relay anycast (deprecated)
        "192.168.0.0/16",  # private
        "198.18.0.0/15",  # benchmarking
        "198.51.100.0/24",  # documentation
        "203.0.113.0/24",  # documentation
        "224.0.0.0/4",  # multicast
        "240.0.0.0/4",  # reserved, and the limited broadcast address
    )
)
#: IPv6 global unicast; everything outside it (loopback, unspecified, link-local, site-local,
#: unique-local, multicast, the deprecated IPv4-compatible form, discard-only) is inside.
GLOBAL_UNICAST_V6 = ipaddress.IPv6Network("2000::/3")
#: The ranges of 2000::/3 that are no public unicast address.
INSIDE_V6 = tuple(
    ipaddress.IPv6Network(network)
    for network in (
        "2001::/23",  # IETF protocol assignments: Teredo, benchmarking, ORCHID
        "2001:db8::/32",  # documentation
        "2002::/16",  # 6to4: an IPv4 address inside, relayed
        "3fff::/20",  # documentation
    )
)
#: NAT64's well-known prefix: the last 32 bits are the IPv4 address reached.
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")

#: A DNS label (letters, digits, hyphens; not starting or ending with a hyphen).
LABEL = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)")
#: What may appear in an outside URL: printable ASCII, no blank, no backslash.
URL_CHARACTERS = re.compile(r"[!-\[\]-~]+")


class OutsideAddressRefused(Exception):
    """A URL that is no outside address; the message says why, for the client who sent it."""


@dataclass(frozen=True)
class OutsideUrl:
    scheme: str
    host: str
    port: int
    addresses: tuple[IPAddress, ...] = ()


def loopback_allowed() -> bool:
    return bool(settings.OUTSIDE_LOOPBACK_FOR_TESTS)


def address_allowed(address: IPAddress, *, loopback: bool = False) -> bool:
    """Is ``address`` a public unicast address (or, with ``loopback``, a loopback one)?"""
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_v4(address)
        if embedded is not None:
            return address_allowed(embedded, loopback=loopback)
        if loopback and address.is_loopback:
            return True
        if address not in GLOBAL_UNICAST_V6 or any(address in n for n in INSIDE_V6):
            return False
        return _public_by_python(address) and not address.is_site_local
    if loopback and address.is_loopback:
        return True
    if any(address in network for network in INSIDE_V4):
        return False
    return _public_by_python(address)


def _embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv4-mapped or NAT64 address reaches."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def _public_by_python(address: IPAddress) -> bool:
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )


def resolve_name(host: str, port: int) -> list[IPAddress]:
    """The system resolver's addresses for ``host``, in its order, each once."""
    found: list[IPAddress] = []
    for family, _type, _proto, _name, sockaddr in socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM
    ):
        if family not in (socket.AF_INET, socket.AF_INET6):
            continue
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


def outside_url_parse(url: str, *, loopback: bool | None = None) -> OutsideUrl:
    """``url``'s scheme, host and port if it may name an outside address, its name not yet
    resolved; ``OutsideAddressRefused`` saying why not."""
    loopback = loopback_allowed() if loopback is None else loopback
    schemes = ("https", "http") if loopback else ("https",)
    if not URL_CHARACTERS.fullmatch(url):
        raise OutsideAddressRefused(_("Send the subscription's https endpoint."))
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:  # not a number, or past 65535
        port = 0
    host = (parts.hostname or "").rstrip(".")
    if parts.scheme not in schemes or not host or port == 0 or "@" in parts.netloc:
        raise OutsideAddressRefused(_("Send the subscription's https endpoint."))
    port = port or (443 if parts.scheme == "https" else 80)
    literal = _ip_literal(host)
    if literal is not None:
        if loopback and literal.is_loopback:
            return OutsideUrl(parts.scheme, host, port, (literal,))
        raise OutsideAddressRefused(
            _("The endpoint must name its host: %(host)s is an IP address.") % {"host": host}
        )
    labels = host.split(".")
    named = len(labels) >= 2 and all(LABEL.fullmatch(label) for label in labels)
    if not named or not re.search(r"[a-z]", labels[-1]):
        raise OutsideAddressRefused(
            _("The endpoint's host %(host)s is not a name of the Internet.") % {"host": host}
        )
    return OutsideUrl(parts.scheme, host, port)


def _ip_literal(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return None


def outside_addresses(
    host: str, port: int, *, resolve: Resolver | None = None, loopback: bool | None = None
) -> tuple[IPAddress, ...]:
    """``host``'s addresses, each of them allowed: ``OutsideAddressRefused`` when one is not,
    or there is none; ``socket.gaierror`` when the name does not resolve (now, at least)."""
    loopback = loopback_allowed() if loopback is None else loopback
    literal = _ip_literal(host)
    addresses = (literal,) if literal is not None else tuple((resolve or resolve_name)(host, port))
    if not addresses or not all(address_allowed(a, loopback=loopback) for a in addresses):
        raise OutsideAddressRefused(_unresolved(host))
    return addresses


def _unresolved(host: str) -> str:
    """One answer for a name inside and a name that does not resolve: neither what a name of
    the server's network resolves to nor whether it resolves is any client's business."""
    return _(
        "%(host)s does not resolve to public addresses only, as a push service's name does."
    ) % {"host": host}


def outside_url_check(
    url: str, *, resolve: Resolver | None = None, loopback: bool | None = None
) -> OutsideUrl:
    """``url`` parsed and its name resolved, every address allowed (``OutsideAddressRefused``
    saying why not): what is checked before an outside address is stored."""
    parsed = outside_url_parse(url, loopback=loopback)
    try:
        addresses = outside_addresses(parsed.host, parsed.port, resolve=resolve, loopback=loopback)
    except (socket.gaierror, UnicodeError):
        raise OutsideAddressRefused(_unresolved(parsed.host)) from None
    return OutsideUrl(parsed.scheme, parsed.host, parsed.port, addresses)
