"""docs/errors.md's table of problem types, read as the tests read it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ERRORS_MD = Path(__file__).resolve().parents[2] / "docs" / "errors.md"
ROW = re.compile(r"^\| (\d{3}) \| `([a-z_]+)` \| ([^|]+?) \| .+\|$")

#: The codes only the reverse proxy in front (nginx) sends: no request
#: to the application gets them, so tests/foundation/test_reverse_proxy.py sends each through
#: nginx instead of tests/games/test_errors_doc.py.
PROXY_CODES = (
    "uri_too_long",
    "header_too_large",
    "http_version_not_supported",
    "network_not_allowed",
    "bad_gateway",
)


@dataclass(frozen=True)
class Documented:
    status: int
    code: str
    title: str


def documented() -> list[Documented]:
    rows = [ROW.match(line) for line in ERRORS_MD.read_text().splitlines()]
    return [Documented(int(m[1]), m[2], m[3].strip()) for m in rows if m]
