"""CSV the apps write for spreadsheets: RFC 4180 rows whose cells never run as formulas."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

#: What a spreadsheet reads as the start of a formula (OWASP's list): a cell starting so is
#: written with a ``'`` before it.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """One cell as written: ``None`` empty, a bool ``true``/``false``, a text starting as a
    formula with a ``'`` before it (a name never runs as a spreadsheet formula)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value[:1] in FORMULA_STARTS:
        return "'" + value
    return value


def csv_document(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> bytes:
    """A header row, then ``rows``, as UTF-8 CSV. RFC 4180's CRLF ends each row: the writer
    then quotes a field holding either line break (with "\\n" alone a name holding "\\r" would
    end its row for a reader)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(value) for value in row])
    return out.getvalue().encode()
