"""An entrants file (``text/csv``), read into one ``EntrantSpec`` per row.

The first row names the columns, in any order: ``name`` (a guest), ``username`` (a player with
an account; ``player_id`` may name one instead), ``club``, ``seed`` and ``division`` (at an
event with divisions). Each later row is one entrant; a blank line is skipped. UTF-8, with or
without a byte-order mark; cells separated by commas (or by semicolons, when the header has no
comma and has one: what some spreadsheets
write), quoted as RFC 4180 says. ``read_entrants`` reports what is wrong with the file as
such: an unknown column, a cell that is not a number where one is wanted, a row with more cells
than the header, too many rows; each keyed ``<line>.<column>`` (``<line>`` for a line wrong as
a whole), so that the entrants' own checks add to the same list.
"""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from scoring.competitions.entrants import EntrantSpec
from scoring.competitions.problems import MAX_FILE_ROWS

#: The columns an entrants file may have.
COLUMNS = ("name", "username", "player_id", "club", "seed", "division")
#: One of these must be there to name an entrant.
NAMING = ("name", "username", "player_id")


def _decoded(data: bytes, errors: dict[str, list[str]]) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        errors[str(line)] = [
            _("The file is not UTF-8 text: byte %(byte)s of line %(line)s is not.")
            % {"byte": f"0x{data[error.start]:02x}", "line": line}
        ]
        return None


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def read_entrants(data: bytes) -> tuple[list[EntrantSpec], dict[str, list[str]]]:
    """The entrants of a file, each keyed by its line (``"3."``), and what is wrong with it."""
    errors: dict[str, list[str]] = {}
    text = _decoded(data, errors)
    if text is None:
        return [], errors
    first = text.split("\n", 1)[0]
    delimiter = ";" if "," not in first and ";" in first else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    specs: list[EntrantSpec] = []
    header: list[str] | None = None
    start = 1
    try:
        for row in reader:
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = _header(row, line, errors)
                continue
            if len(specs) >= MAX_FILE_ROWS:
                errors[str(line)] = [
                    _("The file has more than %(max)s entrants: send it in parts.")
                    % {"max": f"{MAX_FILE_ROWS:,}"}
                ]
                break
            spec = _row(row, header, line, errors)
            if spec is not None:
                specs.append(spec)
    except csv.Error as error:
        errors[str(reader.line_num)] = [
            _("This line is not CSV as RFC 4180 writes it: %(reason)s.") % {"reason": str(error)}
        ]
    if header is None and not errors:
        errors["1"] = [_("The file is empty: a header row (name,username,club,seed) comes first.")]
    elif header is not None and not specs and not errors:
        errors["2"] = [_("The file names no entrant: one row per entrant follows the header.")]
    return specs, errors


def _header(row: list[str], line: int, errors: dict[str, list[str]]) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    for index, name in enumerate(names):
        if name not in COLUMNS:
            errors[f"{line}.{name or index + 1}"] = [
                _("Not a column of an entrants file; its columns are %(columns)s.")
                % {"columns": ", ".join(COLUMNS)}
            ]
        elif names.index(name) != index:
            errors[f"{line}.{name}"] = [_("This column is named twice.")]
    if not set(NAMING) & set(names):
        errors[f"{line}.name"] = [
            _("The header has no column that names an entrant: name, username or player_id.")
        ]
    return names


def _row(
    row: list[str], header: list[str], line: int, errors: dict[str, list[str]]
) -> EntrantSpec | None:
    if len(row) > len(header):
        errors[str(line)] = [
            _("This row has %(cells)s cells; the header names %(columns)s columns.")
            % {"cells": len(row), "columns": len(header)}
        ]
        return None
    cells = {name: cell.strip() for name, cell in zip(header, row, strict=False)}
    numbers: dict[str, int | None] = {}
    for column in ("player_id", "seed"):
        text = cells.get(column, "")
        numbers[column] = _number(text) if text else None
        if text and numbers[column] is None:
            errors[f"{line}.{column}"] = [
                _("%(value)s is not a whole number.") % {"value": repr(text[:40])}
            ]
    return EntrantSpec(
        key=f"{line}.",
        name=cells.get("name") or None,
        username=cells.get("username") or None,
        player_id=numbers["player_id"],
        club=cells.get("club", ""),
        seed=numbers["seed"],
        division=cells.get("division") or None,
    )
