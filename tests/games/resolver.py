"""Names of the tests' own: the names under ``.test`` (RFC 6761 keeps that domain for tests),
and any other name a test sets (a push service's, pointed at its peer on loopback), resolve to
the addresses the test sets, and can change between two lookups as an attacker's DNS would
(rebinding); every other name resolves as the system resolves it.

The table is put in front of ``socket.getaddrinfo``, the one call every resolution in this
process goes through (ours, urllib3's), so that what is tested is the code that reads the
system's answer, and a connection made to a name the server should not have resolved again
would go where the table says.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

#: Addresses of the public Internet (a CDN's, a resolver's).
PUBLIC_V4, PUBLIC_V6 = "93.184.215.14", "2606:4700:4700::1111"

#: Names that resolve (in part) inside: each refused.
INSIDE = {
    "ten.test": ["10.1.2.3"],
    "rfc1918-172.test": ["172.16.0.1"],
    "rfc1918-192.test": ["192.168.1.1"],
    "cgnat.test": ["100.64.0.1"],
    "metadata.test": ["169.254.169.254"],
    "loopback.test": ["127.0.0.1"],
    "loopback-other.test": ["127.8.9.10"],
    "zero.test": ["0.0.0.0"],  # noqa: S104
    "this-network.test": ["0.1.2.3"],
    "multicast.test": ["224.0.0.1"],
    "reserved.test": ["240.0.0.1"],
    "broadcast.test": ["255.255.255.255"],
    "benchmarking.test": ["198.18.0.1"],
    "documentation.test": ["192.0.2.1"],
    "ietf.test": ["192.0.0.8"],
    "relay.test": ["192.88.99.1"],
    "v6-loopback.test": ["::1"],
    "v6-unspecified.test": ["::"],
    "v6-link-local.test": ["fe80::1"],
    "v6-unique-local.test": ["fd12:3456::1"],
    "v6-site-local.test": ["fec0::1"],
    "v6-multicast.test": ["ff02::1"],
    "v6-mapped-private.test": ["::ffff:10.0.0.1"],
    "v6-mapped-loopback.test": ["::ffff:127.0.0.1"],
    "v6-compatible.test": ["::10.0.0.1"],
    "v6-nat64-private.test": ["64:ff9b::a00:1"],
    "v6-nat64-local.test": ["64:ff9b:1::1"],
    "v6-6to4.test": ["2002:a00:1::1"],
    "v6-teredo.test": ["2001::1"],
    "v6-documentation.test": ["2001:db8::1"],
    "v6-discard.test": ["100::1"],
    "v6-srv6.test": ["5f00::1"],
    "mixed.test": [PUBLIC_V4, "10.0.0.1"],  # one address inside is one too many
    "mixed-v6.test": [PUBLIC_V6, "fd00::1"],
    "nothing.test": [],  # resolves to no address at all
}


@dataclass
class Names:
    """``names[host] = ["203.0.114.1", "2001:4860::8"]``; ``lookups`` counts each name asked."""

    table: dict[str, list[str]] = field(default_factory=dict)
    lookups: list[str] = field(default_factory=list)

    def __setitem__(self, host: str, addresses: list[str]) -> None:
        self.table[host.lower()] = addresses

    def answer(self, host: str, port: Any, kind: int, proto: int) -> list[tuple[Any, ...]]:
        self.lookups.append(host)
        addresses = self.table.get(host.lower().rstrip("."))
        if not addresses:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        number = int(port or 0)
        answers = []
        for text in addresses:
            address = ipaddress.ip_address(text)
            if address.version == 4:
                answers.append((socket.AF_INET, kind, proto, "", (text, number)))
            else:
                answers.append((socket.AF_INET6, kind, proto, "", (text, number, 0, 0)))
        return answers


@pytest.fixture
def names(monkeypatch: pytest.MonkeyPatch) -> Names:
    table = Names()
    system: Callable[..., list[tuple[Any, ...]]] = socket.getaddrinfo

    def getaddrinfo(
        host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0
    ) -> list[tuple[Any, ...]]:
        name = host.decode() if isinstance(host, bytes) else host
        bare = name.lower().rstrip(".") if isinstance(name, str) else None
        if bare is not None and (bare.endswith(".test") or bare in table.table):
            return table.answer(name, port, type or socket.SOCK_STREAM, proto)
        return system(host, port, family, type, proto, flags)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return table
