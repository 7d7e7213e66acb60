"""What a notification says to a person: a title and a body, in the active language (the
recipient's: the delivery and the inbox switch to it), from public facts only.

Names (the players', a competition's) are plain text: put in as they were written, never
interpreted (no markup, no format), each clipped to ``NAME_CHARS`` and the whole to
``TITLE_CHARS`` / ``BODY_CHARS`` characters, which keeps a Web Push within its 4 KB
(``webpush``) whatever the names. The facts are read for a list of notifications at once: a
page of the inbox costs the same few queries as one push.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import regex
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.models import Match, Player, Seat

#: Characters of one name in a text; of a title; of a body.
NAME_CHARS = 64
TITLE_CHARS = 80
BODY_CHARS = 240
ELLIPSIS = "\u2026"
#: A user-perceived character (a grapheme cluster, Unicode TR29): a letter and its marks, an
#: emoji with its skin tone, a family joined by zero-width joiners.
_GRAPHEME = regex.compile(r"\X")


def clip(text: str, limit: int) -> str:
    """``text``, or as many of its first user-perceived characters as fit ``limit``
    characters with an ellipsis after them: a cut never parts a mark, a joiner, a variation
    selector or a skin tone from the character it belongs to."""
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = 0
    for cluster in _GRAPHEME.findall(text):
        if size + len(cluster) > limit - 1:
            break
        kept.append(cluster)
        size += len(cluster)
    return "".join(kept) + ELLIPSIS


def _game(variant: str, match_id: object) -> str:
    """The game's name; a match no longer there by its id."""
    names = {"chickenfoot": _("Chicken Foot"), "mexican_train": _("Mexican Train")}
    return names.get(variant) or _("Match %(match)s") % {"match": match_id}


@dataclass
class _MatchFacts:
    variant: str = ""
    #: position -> (player id, kind, name) of each seat with a player.
    seats: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    competition: str = ""
    stage: int | None = None
    table: int | None = None


def _facts(match_ids: Iterable[int]) -> dict[int, _MatchFacts]:
    from scoring.models import CompetitionMatch

    ids = set(match_ids)
    facts: dict[int, _MatchFacts] = defaultdict(_MatchFacts)
    for pk, variant in Match.objects.filter(pk__in=ids).values_list("pk", "variant"):
        facts[pk].variant = variant
    seats = Seat.objects.filter(match_id__in=ids, player__isnull=False).values_list(
        "match_id", "position", "player_id", "player__kind", "player__display_name"
    )
    for match_id, position, player_id, kind, name in seats:
        facts[match_id].seats[position] = (player_id, kind, name)
    tables = CompetitionMatch.objects.filter(match_id__in=ids).values_list(
        "match_id", "competition__name", "stage__number", "table_number"
    )
    for match_id, name, stage, table in tables:
        facts[match_id].competition, facts[match_id].stage, facts[match_id].table = (
            name,
            stage,
            table,
        )
    return facts


def _names(player_ids: Iterable[int]) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "display_name"))


def opponents(facts: _MatchFacts, player_id: int) -> str:
    """The others at the match, as the recipient reads them: ``Ada, Grace and 2 bots``."""
    others = [seat for seat in facts.seats.values() if seat[0] != player_id]
    names = [clip(name, NAME_CHARS) for _pk, kind, name in others if kind != Player.Kind.BOT]
    bots = sum(1 for _pk, kind, _name in others if kind == Player.Kind.BOT)
    items = list(names)
    if bots:
        items.append(ngettext("%(count)s bot", "%(count)s bots", bots) % {"count": bots})
    if not items:
        return _("nobody yet")
    if len(items) == 1:
        return items[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def _say(
    kind: str, payload: dict[str, Any], facts: _MatchFacts, player_id: int, names: dict[int, str]
) -> tuple[str, str]:
    game = _game(facts.variant, payload.get("match_id"))
    values = {
        "game": game,
        "opponents": opponents(facts, player_id),
        "round": payload.get("round"),
    }
    if kind in ("friend_request", "friend_accepted"):
        name = {"name": clip(names.get(payload.get("by_player_id", 0), _("Someone")), NAME_CHARS)}
        if kind == "friend_request":
            return _("A friend request"), _("%(name)s wants to be your friend") % name
        return _("A new friend"), _("%(name)s accepted your friend request") % name
    if kind == "your_turn":
        return _("%(game)s: your turn") % values, _("Your turn against %(opponents)s") % values
    if kind == "invited":
        by = clip(names.get(payload.get("by_player_id", 0), _("Someone")), NAME_CHARS)
        return (
            _("%(game)s: an invitation") % values,
            _("%(name)s invited you to %(game)s") % {**values, "name": by},
        )
    if kind == "match_started":
        return (
            _("%(game)s: your match started") % values,
            _("Your match against %(opponents)s started") % values,
        )
    if kind == "match_over":
        return (
            _("%(game)s: match finished") % values,
            _("Your match against %(opponents)s is finished") % values,
        )
    if kind == "table_assigned":
        values["competition"] = clip(facts.competition, TITLE_CHARS) or game
        values["stage"], values["table"] = facts.stage or 1, facts.table or 1
        return (
            _("%(competition)s: stage %(stage)s") % values,
            _("You are seated at table %(table)s against %(opponents)s") % values,
        )
    if kind == "round_disputed":
        seat = facts.seats.get(payload.get("seat", -1))
        values["name"] = clip(seat[2], NAME_CHARS) if seat else _("Someone")
        return (
            _("%(game)s: round %(round)s disputed") % values,
            _("%(name)s disputed the scores of round %(round)s") % values,
        )
    return (  # result_corrected
        _("%(game)s: round %(round)s corrected") % values,
        _("The scores of round %(round)s against %(opponents)s were corrected") % values,
    )


def texts(messages: list[dict[str, Any]], *, player_id: int) -> list[dict[str, str]]:
    """The title and body of each of ``player_id``'s notifications (envelopes as
    ``envelope.notification_json`` shapes them), in the active language."""
    facts = _facts(m["payload"].get("match_id", 0) for m in messages)
    names = _names(m["payload"]["by_player_id"] for m in messages if "by_player_id" in m["payload"])
    said = []
    for message in messages:
        payload = message["payload"]
        title, body = _say(
            message["kind"], payload, facts[payload.get("match_id", 0)], player_id, names
        )
        said.append({"title": clip(title, TITLE_CHARS), "body": clip(body, BODY_CHARS)})
    return said
