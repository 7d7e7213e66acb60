"""The games app's side of scoring's port (``scoring.ports``): what competitions ask of games.

Scoring never imports games; games registers this object when Django starts
(``GamesConfig.ready``), and scoring's services call it with ids and plain values.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import engine
from games.accounts.names import username_key, username_normalise
from games.accounts.players import bot_player
from games.avatars.urls import avatar_urls_by_id
from games.engine.shuffle import new_match_seed
from games.live.publish import on_commit_notice
from games.live.wall import (
    on_commit_stage_clock,
    on_commit_wall,
    on_commit_wall_closed,
    on_commit_wall_seating,
)
from games.models import Match, Player, Round, Seat
from games.notifications.services import (
    seated_notifications_withdraw,
    table_assigned_notify,
    tables_assigned_notify,
)
from games.paper.crosstable import crosstable_pdf
from games.paper.pairings import PairingsSection, pairings_pdf
from games.paper.standings_sheet import standings_pdf
from games.paper.table_card import table_cards_pdf
from games.profiles.visibility import hidden_profiles_of, profile_hidden_by_id
from games.services import player_for_user
from games.services.matches import match_start
from games.tables.event_links import tables_scorer_links
from games.tables.options import table_options_resolve
from games.tables.progress import tables_progress
from games.tables.scorer_links import event_link_issue, event_links_issue
from games.tables.seats import guest_name_problem
from games.tables.services import table_match_create_for, table_matches_create_for
from scoring.ports import EntrantPlayer, PlayerRef

#: The frame a deleted stage match's sockets get before they close: the organiser changed the
#: stage's seating before anyone moved, and the table was dealt again as another match.
MATCH_CANCELLED = "match_cancelled"

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

    def profile_hidden(self, *, player_id: int, user: Any) -> bool:
        viewer = player_for_user(user=user)
        return profile_hidden_by_id(player_id=player_id, viewer_id=viewer.pk)

    def hidden_profiles(self, *, player_ids: set[int], user: Any) -> set[int]:
        viewer = player_for_user(user=user)
        return hidden_profiles_of(player_ids=player_ids, viewer_id=viewer.pk)

    def avatar_urls(self, *, player_ids: set[int]) -> dict[int, dict[str, str]]:
        return avatar_urls_by_id(player_ids)

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
        """A table match with every seat taken by an entrant (a player with an account or a
        guest), ready to score, and its scorer link (one whose code the table's card prints:
        ``event_link_issue``)."""
        organiser = Player.objects.get(pk=organiser_id)
        found = Player.objects.in_bulk(player_ids)
        with transaction.atomic():
            match = table_match_create_for(
                creator=organiser,
                variant=variant,
                players=[found[player_id] for player_id in player_ids],
                options=options,
            )
            event_link_issue(match=match, created_by=organiser)
            table_assigned_notify(match_id=match.pk, player_ids=player_ids)
        return match.pk

    def table_matches_create_seated(
        self,
        *,
        organiser_id: int,
        variant: str,
        options: dict[str, Any],
        tables: list[list[int]],
    ) -> list[int]:
        """``table_match_create_seated`` for each of ``tables``, in order, each kind of row
        written in one statement."""
        organiser = Player.objects.get(pk=organiser_id)
        found = Player.objects.in_bulk({pid for player_ids in tables for pid in player_ids})
        with transaction.atomic():
            matches = table_matches_create_for(
                creator=organiser,
                variant=variant,
                tables=[[found[pid] for pid in player_ids] for player_ids in tables],
                options=options,
            )
            event_links_issue(matches=matches, created_by=organiser)
            tables_assigned_notify(
                tables=[(m.pk, list(ids)) for m, ids in zip(matches, tables, strict=True)]
            )
        return [match.pk for match in matches]

    def tables_scorer_links(
        self, *, match_ids: list[int], request_base: str
    ) -> dict[int, dict[str, Any]]:
        return tables_scorer_links(match_ids=match_ids, request_base=request_base)

    def table_cards_pdf(
        self,
        *,
        event: str,
        stage: int,
        tables: list[tuple[int, int]],
        request_base: str,
        divisions: dict[int, str] | None = None,
    ) -> bytes:
        return table_cards_pdf(
            event=event, stage=stage, tables=tables, request_base=request_base, divisions=divisions
        )

    def pairings_pdf(self, *, event: str, stage: int, sections: list[dict[str, Any]]) -> bytes:
        return pairings_pdf(
            event=event, stage=stage, sections=[PairingsSection(**s) for s in sections]
        )

    def standings_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        return standings_pdf(sheet=sheet)

    def crosstable_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        return crosstable_pdf(sheet=sheet)

    def tables_progress(self, *, match_ids: list[int]) -> dict[int, dict[str, Any]]:
        return tables_progress(match_ids=match_ids)

    def matches_lock(self, *, match_ids: list[int]) -> None:
        list(
            Match.objects.select_for_update()
            .filter(pk__in=match_ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )

    def tables_scored(self, *, match_ids: list[int]) -> set[int]:
        """A table match with a round (its scores entered); an online match with a move played
        or a round over (one can end as it is dealt): its round 1 is dealt at the start."""
        rounds = (
            Round.objects.filter(match_id__in=match_ids)
            .filter(Q(match__play=Match.Play.TABLE) | Q(status=Round.Status.FINISHED))
            .values_list("match_id", flat=True)
        )
        moved = Match.objects.filter(pk__in=match_ids, moves_played__gt=0).values_list(
            "pk", flat=True
        )
        return set(rounds) | set(moved)

    def table_match_reseat(
        self, *, match_id: int, player_ids: list[int], options: dict[str, Any]
    ) -> None:
        match = Match.objects.get(pk=match_id)
        before = set(Seat.objects.filter(match=match).values_list("player_id", flat=True))
        now = timezone.now()
        Seat.objects.filter(match=match).delete()
        Seat.objects.bulk_create(
            Seat(match=match, position=position, player_id=player_id, joined_at=now)
            for position, player_id in enumerate(player_ids)
        )
        match.options = table_options_resolve(
            variant=match.variant, seat_count=len(player_ids), options=options
        )
        match.seat_count = len(player_ids)
        match.timeouts_in_row = [0] * len(player_ids)
        match.version += 1
        match.save(update_fields=["options", "seat_count", "timeouts_in_row", "version"])
        table_assigned_notify(
            match_id=match.pk, player_ids=[pid for pid in player_ids if pid not in before]
        )
        on_commit_wall(match_id=match.pk)

    def table_matches_delete(self, *, match_ids: list[int]) -> None:
        """Delete a stage's matches (the caller checked none counts yet), their inbox entries
        too; after commit the sockets of an online one get ``match_cancelled`` and close."""
        matches = Match.objects.filter(pk__in=match_ids, competition_match__isnull=False)
        online = list(matches.filter(play=Match.Play.ONLINE).values_list("pk", flat=True))
        seated_notifications_withdraw(match_ids=match_ids)
        matches.delete()
        for match_id in online:
            on_commit_notice(
                match_id=match_id, frame={"type": MATCH_CANCELLED, "match_id": match_id}
            )

    def wall_seating_changed(self, *, competition_id: int) -> None:
        on_commit_wall_seating(competition_id=competition_id)

    def stage_clock_changed(
        self, *, competition_id: int, number: int, match_ids: list[int]
    ) -> None:
        on_commit_stage_clock(competition_id=competition_id, number=number, match_ids=match_ids)

    def players_find(
        self, *, player_ids: list[int], usernames: list[str]
    ) -> tuple[dict[int, EntrantPlayer], dict[str, EntrantPlayer]]:
        people = Player.objects.filter(kind=Player.Kind.HUMAN, user__isnull=False)
        by_id = {
            player.pk: EntrantPlayer(id=player.pk, name=player.display_name, kind=player.kind)
            for player in (people | Player.objects.filter(kind=Player.Kind.GUEST)).filter(
                pk__in=player_ids
            )
        }
        keys = {username_key(name): name for name in usernames}
        by_name = {
            keys[player.user.username_key.key]: EntrantPlayer(
                id=player.pk, name=player.display_name, kind=player.kind
            )
            for player in people.select_related("user__username_key").filter(
                user__username_key__key__in=list(keys)
            )
        }
        return by_id, by_name

    def guest_name_check(self, *, name: str) -> tuple[str, str | None]:
        return username_normalise(name.strip()), guest_name_problem(name)

    def guests_create(self, *, names: list[str]) -> list[int]:
        guests = Player.objects.bulk_create(
            Player(kind=Player.Kind.GUEST, display_name=username_normalise(name.strip()))
            for name in names
        )
        return [guest.pk for guest in guests]

    def results_written(self, *, match_id: int) -> None:
        moved = F("version") + 1  # both columns from the row as it was (one UPDATE)
        Match.objects.filter(pk=match_id).update(version=moved, results_version=moved)

    def wall_changed(self, *, match_id: int) -> None:
        on_commit_wall(match_id=match_id, standings=True)

    def wall_closed(self, *, competition_id: int) -> None:
        on_commit_wall_closed(competition_id=competition_id)
