"""Who blocked whom: the reads every other part of the service asks before it puts two players
together (an invitation, a friend request, a quick play table, presence, chat).

- ``blocked_between(a, b)``: has either of the two blocked the other? (invitations, friend
  requests, quick play: a block keeps both apart, whichever of them made it).
- ``blockers_of(player)``: the players who blocked ``player`` (whose presence they do not see).
- ``blocked_by(player)``: the players ``player`` blocked (whose chat ``player`` is not shown:
  a chat reader drops the lines of these players' seats for that viewer).
- ``block_refuse(player, other)``: 403 ``blocked`` for a request between the two.
- ``blocked_pairs(players)``: the pairs among ``players`` that a block keeps apart (one query:
  quick play's pairing).
- ``join_block_refuse(player, seated)``: 403 ``blocked`` for a player taking a seat (joining an
  open match, by an invitation or a link's code) beside someone either of them blocked.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from games.models import Player
from games.social.cards import Card, player_card
from games.social.models import Block
from games.social.problems import Blocked


def blocked_between(a: int, b: int) -> bool:
    """Has player ``a`` blocked player ``b``, or ``b`` blocked ``a``?"""
    return Block.objects.filter(
        Q(blocker_id=a, blocked_id=b) | Q(blocker_id=b, blocked_id=a)
    ).exists()


def has_blocked(*, blocker: int, blocked: int) -> bool:
    """Has ``blocker`` blocked ``blocked`` (this way only)?"""
    return Block.objects.filter(blocker_id=blocker, blocked_id=blocked).exists()


def blockers_of(player: int) -> set[int]:
    """The ids of the players who blocked ``player``."""
    return set(Block.objects.filter(blocked_id=player).values_list("blocker_id", flat=True))


def blocked_by(player: int) -> set[int]:
    """The ids of the players ``player`` blocked."""
    return set(Block.objects.filter(blocker_id=player).values_list("blocked_id", flat=True))


def blocked_pairs(players: Iterable[int]) -> set[frozenset[int]]:
    """Each pair of ``players`` one of whom blocked the other, as a two-id set."""
    ids = set(players)
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list(
        "blocker_id", "blocked_id"
    )
    return {frozenset(row) for row in rows}


def block_refuse(*, player: Player, other: Player) -> None:
    """403 ``blocked`` when ``player`` or ``other`` blocked the other (``player`` asks
    something of ``other``: an invitation, a friend request). The detail says which only to
    the one who blocked."""
    if has_blocked(blocker=player.pk, blocked=other.pk):
        raise Blocked(_("You blocked %(name)s: unblock them first.") % {"name": other.display_name})
    if has_blocked(blocker=other.pk, blocked=player.pk):
        raise Blocked(_("%(name)s takes no requests from you.") % {"name": other.display_name})


def join_block_refuse(*, player: Player, seated: Iterable[int], match_id: int) -> None:
    """403 ``blocked`` when ``player``, taking a seat at match ``match_id``, blocked one of the
    ``seated`` players or was blocked by one (one query). The detail names the seated player
    only to the one who blocked them; whoever was blocked learns that someone seated there
    takes no requests from them, as an invitation's refusal says, and not who."""
    others = set(seated) - {player.pk}
    if not others:
        return
    rows = list(
        Block.objects.filter(
            Q(blocker_id=player.pk, blocked_id__in=others)
            | Q(blocked_id=player.pk, blocker_id__in=others)
        )
        .order_by("pk")
        .values_list("blocker_id", "blocked__display_name")
    )
    own = [name for blocker, name in rows if blocker == player.pk]
    if own:
        raise Blocked(
            _("You blocked %(name)s, who sits at match %(match)s: unblock them first.")
            % {"name": own[0], "match": match_id}
        )
    if rows:
        raise Blocked(
            _("A player seated at match %(match)s takes no requests from you.")
            % {"match": match_id}
        )


def blocks_of(player: int) -> QuerySet[Block]:
    """The blocks ``player`` made, the newest first."""
    return (
        Block.objects.filter(blocker_id=player)
        .select_related("blocked__avatar")
        .order_by("-created_at", "-pk")
    )


def block_json(block: Block, card: Card = player_card) -> dict[str, Any]:
    """A block as its maker's list shows it (the player by ``card``)."""
    return {"player": card(block.blocked), "created_at": block.created_at}
