"""Typed readers for settings that come from the environment."""

from __future__ import annotations

import ipaddress
import os
import re

from django.core.exceptions import ImproperlyConfigured

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off", ""})


def env_str(name: str, default: str = "") -> str:
    """The variable's value, or ``default`` when it is unset or empty."""
    return os.environ.get(name) or default


def env_bool(name: str, *, default: bool) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off`` (any case); ``default`` when unset."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false).")


def env_int(name: str, *, default: int) -> int:
    """An integer; ``default`` when unset or empty."""
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer.") from None


def env_list(name: str, *, default: list[str]) -> list[str]:
    """A comma-separated list with blanks dropped; ``default`` when unset or empty."""
    raw = os.environ.get(name)
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def env_networks(name: str) -> list[Network]:
    """Comma-separated addresses or networks (``10.0.0.0/8,::1``; an address alone is a network
    of one); none when unset or empty."""
    networks: list[Network] = []
    for item in env_list(name, default=[]):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(
                f"{name}: {item!r} is not an address or a network (CIDR)."
            ) from None
    return networks


def env_choice(name: str, choices: tuple[str, ...], *, default: str) -> str:
    """One of ``choices`` (any case); ``default`` when unset or empty."""
    raw = os.environ.get(name)
    if not raw:
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of {', '.join(choices)}.")
    return value


#: ``<count>/[<n>]<period>``: a period of second, minute, hour or day, by its first letter (DRF's
#: form), or ``n`` of them (``5/10s``).
_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])[a-z]*\s*$", re.IGNORECASE)
_OFF = frozenset({"off", "none"})


def env_rate(name: str, default: str) -> str | None:
    """A request rate such as ``120/min``, ``20/hour`` or ``5/10s`` (5 in each 10 seconds);
    ``off`` (or ``none``) for no limit."""
    raw = os.environ.get(name) or default
    if raw.strip().lower() in _OFF:
        return None
    match = _RATE.match(raw)
    if match is None or int(match[1]) < 1 or (match[2] and int(match[2]) < 1):
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a rate: use <count>/[<n>]<second|minute|hour|day> "
            "(e.g. 120/min, 5/10s) or off."
        )
    periods = str(int(match[2])) if match[2] else ""
    return f"{int(match[1])}/{periods}{match[3].lower()}"
