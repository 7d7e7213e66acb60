"""The house options of a table match: only those that mean something with real tiles."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engine

#: The options a table match takes (docs/rules.md §4): the set, how many rounds, and what the
#: double blank scores. The rest are about dealing and playing, which the server does not do.
TABLE_OPTIONS = ("max_pip", "rounds", "double_blank_points")


def table_options_resolve(
    *, variant: str, seat_count: int, options: dict[str, Any] | None
) -> dict[str, Any]:
    """The options resolved as for an online match (every default filled in: the others keep
    their defaults and mean nothing at a table), refusing every option other than
    ``TABLE_OPTIONS``: one ``OptionError`` (400 ``invalid_option``) naming each bad field."""
    options = dict(options or {})
    found: list[engine.OptionError] = []
    others = sorted(name for name in options if name not in TABLE_OPTIONS)
    if others:
        shown = ", ".join(others)
        errors = {
            f"options.{name}": [
                _(
                    "Not an option at a table (the server deals nothing); a table match takes "
                    "%(options)s."
                )
                % {"options": ", ".join(TABLE_OPTIONS)}
            ]
            for name in others
        }
        found.append(
            engine.OptionError(
                _(
                    "Option(s) %(shown)s mean nothing at a table: a table match "
                    "takes %(table_options)s."
                )
                % {"shown": shown, "table_options": ", ".join(TABLE_OPTIONS)},
                errors=errors,
            )
        )
    kept = {name: value for name, value in options.items() if name in TABLE_OPTIONS}
    try:
        resolved = engine.resolve_options(variant, seat_count, kept)
    except engine.OptionError as error:
        found.append(error)
    if found:
        raise engine.OptionError.combined(found)
    return resolved
