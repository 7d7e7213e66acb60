"""Who sits at a table match: its creator, players with accounts (by id or username), guests."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.accounts.names import (
    DISPLAY_NAME_MAX_LENGTH,
    display_name_problem,
    looks_like_a_bot,
    username_key,
    username_normalise,
)
from games.models import Player

CREATOR = "creator"
PLAYER = "player"
GUEST = "guest"
TABLE_SEAT_KINDS = (CREATOR, PLAYER, GUEST)


@dataclass(frozen=True)
class TableSeatSpec:
    """One seat of a table match as its creator asks for it: ``creator``; ``player`` with
    ``player_id`` or ``username``; ``guest`` with ``name``."""

    kind: str
    player_id: int | None = None
    username: str | None = None
    name: str | None = None


def guest_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a guest's display name (as any display name: games/names.py)."""
    shown = username_normalise(name.strip())
    if not shown:
        return _("A guest needs a name.")
    if len(shown) > DISPLAY_NAME_MAX_LENGTH:
        return _("Ensure this field has no more than %(max_length)s characters.") % {
            "max_length": DISPLAY_NAME_MAX_LENGTH
        }
    if problem := display_name_problem(shown):
        return problem
    if looks_like_a_bot(shown):
        return _("%(name)r looks like a bot's name: choose another name for the guest.") % {
            "name": shown
        }
    return None


def _account_player(spec: TableSeatSpec) -> Player | None:
    players = Player.objects.filter(kind=Player.Kind.HUMAN).select_related("user")
    if spec.player_id is not None:
        return players.filter(pk=spec.player_id).first()
    return players.filter(user__username_key__key=username_key(spec.username or "")).first()


def table_seats_resolve(
    *, creator: Player, seats: list[TableSeatSpec]
) -> tuple[list[Player | str], dict[str, list[str]]]:
    """Each seat's player with an account, or a guest's name (a ``str``: the guest is created
    with the match), and what is wrong with each seat by field (``seats.2.username``)."""
    errors: dict[str, list[str]] = {}
    resolved: list[Player | str] = []
    taken: dict[int, int] = {}  # player id -> the first seat they take
    for position, spec in enumerate(seats):
        field = f"seats.{position}"
        player: Player | None = None
        if spec.kind == CREATOR:
            player = creator
        elif spec.kind == PLAYER:
            if (spec.player_id is None) == (spec.username is None):
                errors[field] = [_("A player's seat names them by `player_id` or by `username`.")]
                resolved.append("")
                continue
            player = _account_player(spec)
            if player is None:
                name = "player_id" if spec.player_id is not None else "username"
                shown = spec.player_id if spec.player_id is not None else spec.username
                errors[f"{field}.{name}"] = [
                    _("There is no player %(player)r with an account.") % {"player": shown}
                ]
        elif spec.kind == GUEST:
            problem = guest_name_problem(spec.name or "")
            if problem:
                errors[f"{field}.name"] = [problem]
            resolved.append(username_normalise((spec.name or "").strip()))
            continue
        else:
            errors[f"{field}.kind"] = [
                _("A seat at a table is one of %(kinds)s; got %(kind)r.")
                % {"kinds": ", ".join(TABLE_SEAT_KINDS), "kind": spec.kind}
            ]
        if player is not None:
            if player.pk in taken:
                errors[f"{field}.kind" if spec.kind == CREATOR else f"{field}"] = [
                    _("%(name)s has seat %(seat)s already.")
                    % {"name": player.display_name, "seat": taken[player.pk]}
                ]
            taken.setdefault(player.pk, position)
        resolved.append(player if player is not None else "")
    return resolved, errors
