"""The games app's side of scoring's port (``scoring.ports``): what competitions ask of games.

Scoring never imports games; games registers this object when Django starts
(``GamesConfig.ready``), and scoring's services call it with ids and plain values.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine
from games.accounts.players import bot_player
from games.engine.shuffle import new_match_seed
from games.live.wall import on_commit_wall, on_commit_wall_closed
from games.models import Match, Player, Seat
from games.notifications.services import table_assigned_notify
from games.paper.crosstable import crosstable_pdf
from games.paper.pairings import pairings_pdf
from games.paper.standings_sheet import standings_pdf
from games.paper.table_card import table_cards_pdf
from games.services import player_for_user
from games.services.matches import match_start
from games.tables.event_links import tables_scorer_links
from games.tables.progress import tables_progress
from games.tables.scorer_links import event_link_issue
from games.tables.seats import PLAYER, TableSeatSpec
from games.tables.services import table_match_create
from scoring.ports import PlayerRef

#: The bot levels a competition may fill tables with.
BOT_LEVELS = (1, 2, 3)


class GamesForScoring:
    """``scoring.ports.GamesPort``, implemented by the games app's services."""

    def resolve_options(
        self, *, variant: str, seat_count: int, options: dict[str, Any]
    ) -> dict[str, Any]:
        return engine.resolve_options(variant, seat_count, options)

    def options_error(
        self, *, variant: str, seat_counts: list[int], options: dict[str, Any]
    ) -> engine.OptionError | None:
        found: list[engine.OptionError] = []
        for seat_count in seat_counts:
            try:
                engine.resolve_options(variant, seat_count, options)
            except engine.OptionError as error:
                if not any(error.errors == seen.errors for seen in found):
                    found.append(error)
        return engine.OptionError.combined(found) if found else None

    def authenticators(self) -> list[Any]:
        from games.api.common import GameApi  # the API layer loads after the apps

        return [auth() for auth in GameApi.authentication_classes]

    def bot_levels(self) -> tuple[int, ...]:
        return BOT_LEVELS

    def player_for_user(self, *, user: Any) -> PlayerRef:
        player = player_for_user(user=user)
        return PlayerRef(id=player.pk, display_name=player.display_name, organises=player.organises)

    def match_create_seated(
        self,
        *,
        organiser_id: int,
        variant: str,
        options: dict[str, Any],
        player_ids: list[int | None],
        bot_level: int,
        turn_seconds: int | None,
    ) -> int:
        """A match with every seat taken (``None``: a new bot), dealt and started at once.

        ``turn_seconds`` (when not ``None``) is the match's turn clock, the house option of
        that name (docs/rules.md §4): the start sets the first human's deadline.
        """
        if turn_seconds is not None:
            options = {**options, "turn_seconds": turn_seconds}
        organiser = Player.objects.get(pk=organiser_id)
        resolved = engine.resolve_options(variant, len(player_ids), options)
        now = timezone.now()
        with transaction.atomic():
            match = Match.objects.create(
                variant=variant,
                options=resolved,
                seat_count=len(player_ids),
                seed=new_match_seed(),
                created_by=organiser,
            )
            seated = [
                pid if pid is not None else bot_player(level=bot_level).pk for pid in player_ids
            ]
            Seat.objects.bulk_create(
                Seat(match=match, position=position, player_id=player_id, joined_at=now)
                for position, player_id in enumerate(seated)
            )
            match_start(match_id=match.pk, player=organiser)
            table_assigned_notify(match_id=match.pk, player_ids=player_ids)
        return match.pk

    def table_match_create_seated(
        self, *, organiser_id: int, variant: str, options: dict[str, Any], player_ids: list[int]
    ) -> int:
        """A table match with every seat taken by a player with an account, ready to score,
        and its scorer link (one whose code the table's card prints: ``event_link_issue``)."""
        organiser = Player.objects.get(pk=organiser_id)
        seats = [TableSeatSpec(kind=PLAYER, player_id=player_id) for player_id in player_ids]
        with transaction.atomic():
            match = table_match_create(
                creator=organiser, variant=variant, seats=seats, options=options
            )
            event_link_issue(match=match, created_by=organiser)
            table_assigned_notify(match_id=match.pk, player_ids=player_ids)
        return match.pk

    def tables_scorer_links(
        self, *, match_ids: list[int], request_base: str
    ) -> dict[int, dict[str, Any]]:
        return tables_scorer_links(match_ids=match_ids, request_base=request_base)

    def table_cards_pdf(
        self, *, event: str, stage: int, tables: list[tuple[int, int]], request_base: str
    ) -> bytes:
        return table_cards_pdf(event=event, stage=stage, tables=tables, request_base=request_base)

    def pairings_pdf(
        self, *, event: str, stage: int, tables: list[tuple[int, list[str]]], byes: list[str]
    ) -> bytes:
        return pairings_pdf(event=event, stage=stage, tables=tables, byes=byes)

    def standings_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        return standings_pdf(sheet=sheet)

    def crosstable_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        return crosstable_pdf(sheet=sheet)

    def tables_progress(self, *, match_ids: list[int]) -> dict[int, dict[str, Any]]:
        return tables_progress(match_ids=match_ids)

    def wall_changed(self, *, match_id: int) -> None:
        on_commit_wall(match_id=match_id, standings=True)

    def wall_closed(self, *, competition_id: int) -> None:
        on_commit_wall_closed(competition_id=competition_id)
