"""The standings CSV keeps what players wrote in its cell: quoted as RFC 4180 says, never run as
a spreadsheet formula."""

from __future__ import annotations

import csv
import io

import pytest

from scoring.api.standings import StandingsCSVRenderer
from scoring.competitions.standings import COLUMNS


def written(name: str) -> str:
    row = dict.fromkeys(COLUMNS, 0) | {"name": name}
    text = StandingsCSVRenderer().render({"standings": [row]}).decode()
    return next(csv.DictReader(io.StringIO(text, newline="")))["name"]


@pytest.mark.parametrize("name", ["=1+2", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"])
def test_a_name_that_a_spreadsheet_would_run_is_written_as_text(name: str) -> None:
    assert written(name) == f"'{name}"


@pytest.mark.parametrize("name", ["a,b", 'say "hi"', "two\nlines", "car\rriage", "a\r\nb"])
def test_a_name_with_quotes_commas_or_line_breaks_stays_in_its_cell(name: str) -> None:
    assert written(name) == name
