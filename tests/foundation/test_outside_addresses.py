"""Which addresses are outside addresses (chickenfoot/outside_addresses.py): public unicast only,
for IPv4 and IPv6 and the IPv6 forms that carry an IPv4 address; loopback only with the tests'
own setting."""

from __future__ import annotations

import ipaddress

import pytest

from chickenfoot.outside_addresses import address_allowed
from tests.games.resolver import INSIDE, PUBLIC_V4, PUBLIC_V6

PUBLIC = [
    PUBLIC_V4,
    PUBLIC_V6,
    "8.8.8.8",
    "1.1.1.1",
    "100.63.255.255",  # just below CGNAT
    "100.128.0.0",  # just above it
    "172.32.0.1",  # just above 172.16/12
    "192.0.1.1",
    "2a00:1450:4001:80b::200a",
    "::ffff:8.8.8.8",  # IPv4-mapped: the IPv4 address is what is reached
    "64:ff9b::808:808",  # NAT64 of 8.8.8.8
]
INSIDE_ADDRESSES = sorted(
    {address for addresses in INSIDE.values() for address in addresses} - set(PUBLIC)
)


@pytest.mark.parametrize("text", PUBLIC)
def test_public_unicast_addresses_are_outside_addresses(text: str) -> None:
    assert address_allowed(ipaddress.ip_address(text))


@pytest.mark.parametrize("text", INSIDE_ADDRESSES)
def test_addresses_inside_a_network_are_not(text: str) -> None:
    assert not address_allowed(ipaddress.ip_address(text))
    if not ipaddress.ip_address(text).is_loopback and text != "::ffff:127.0.0.1":
        assert not address_allowed(ipaddress.ip_address(text), loopback=True)


@pytest.mark.parametrize("text", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_loopback_is_one_only_with_the_tests_setting(text: str) -> None:
    assert not address_allowed(ipaddress.ip_address(text))
    assert address_allowed(ipaddress.ip_address(text), loopback=True)
