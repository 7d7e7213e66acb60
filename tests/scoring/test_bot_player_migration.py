"""games 0017_bot_players merges the bot players made one per seat into one per level, keeps
their results, rates every affected variant again as the live code now rates it, and unapplies
by giving each extra seat of a level at one match a bot player of its own again."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.models import Player, Seat
from scoring import ratings
from scoring.models import MatchResult, Rating, RatingChange
from scoring.services import match_finalise
from tests.games.factories import PlayerFactory
from tests.scoring.conftest import make_finished_match
from tests.scoring.test_migrations import latest, migrate

BEFORE = [("games", "0016_notifications")]
#: The player's quiet hours (games 0024), as its migration adds them.
QUIET_HOURS_COLUMNS = (
    "time_zone varchar(64) DEFAULT '' NOT NULL",
    "quiet_hours_start time NULL",
    "quiet_hours_end time NULL",
)


def migrate_before() -> None:
    """The games schema before 0017, and the player's ``language`` (0018),
    ``profile_visibility`` (0022) and quiet hours (0024), the result's ``unrated_reason``, the
    match's ``hints`` (0025) and ``results_version`` (0028) added by hand: the factories and
    the services write today's rows. They go again before migrating forward."""
    migrate(BEFORE)
    # plain SQL: SQLite's schema editor would rebuild the table with today's constraints
    with connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE games_player ADD COLUMN language varchar(8) DEFAULT '' NOT NULL"
        )
        cursor.execute(
            "ALTER TABLE games_player ADD COLUMN profile_visibility varchar(8) "
            "DEFAULT 'everyone' NOT NULL"
        )
        for column in QUIET_HOURS_COLUMNS:
            cursor.execute(f"ALTER TABLE games_player ADD COLUMN {column}")
        cursor.execute(  # scoring 0016, after 0017
            "ALTER TABLE scoring_matchresult ADD COLUMN unrated_reason varchar(24) "
            "DEFAULT '' NOT NULL"
        )
        cursor.execute("ALTER TABLE games_match ADD COLUMN hints boolean DEFAULT false NOT NULL")
        cursor.execute(
            "ALTER TABLE games_match ADD COLUMN results_version integer DEFAULT 0 NOT NULL"
        )


def migrate_after() -> None:
    """Forward to every app's last migration, from ``migrate_before``'s schema."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_player DROP COLUMN language")
        cursor.execute("ALTER TABLE games_player DROP COLUMN profile_visibility")
        for column in QUIET_HOURS_COLUMNS:
            cursor.execute(f"ALTER TABLE games_player DROP COLUMN {column.split()[0]}")
        cursor.execute("ALTER TABLE scoring_matchresult DROP COLUMN unrated_reason")
        cursor.execute("ALTER TABLE games_match DROP COLUMN hints")
        cursor.execute("ALTER TABLE games_match DROP COLUMN results_version")
    migrate(latest())


def old_bot(level: int) -> Player:
    """A bot player as the code before the migration made one: a new one per seat."""
    return Player.objects.create(kind="bot", bot_level=level, display_name=f"Bot (level {level})")


def rated_from_scratch(variant: str) -> dict[int, tuple[float, float, int]]:
    """Every player's (mu, sigma, matches) rating ``variant``'s results again, in order, with
    the live code's rules (``ratings.rated_places``, ``ratings.rate``)."""
    state: dict[int, tuple[float, float, int]] = {}
    matches: dict[int, list[dict]] = {}
    for row in (
        MatchResult.objects.filter(variant=variant)
        .order_by("finished_at", "match_id", "seat")
        .values("match_id", "player_id", "place")
    ):
        matches.setdefault(row["match_id"], []).append(row)
    for rows in matches.values():
        if ratings.unrated_reason(rows):
            continue
        rows = ratings.rated_places(rows)
        before = [state.get(r["player_id"], (ratings.MU, ratings.SIGMA, 0)) for r in rows]
        after = ratings.rate([b[:2] for b in before], [r["place"] for r in rows])
        for row, old, (mu, sigma) in zip(rows, before, after, strict=True):
            state[row["player_id"]] = (mu, sigma, old[2] + 1)
    return state


@pytest.mark.django_db(transaction=True)
def test_bot_players_merge_per_level_keep_results_and_are_rated_again() -> None:
    # given: the schema before the migration, three bot players of two levels, and matches
    migrate_before()
    ada = PlayerFactory(user__username="ada", display_name="Ada")
    grace = PlayerFactory(user__username="grace", display_name="Grace")
    first, second, rookie = old_bot(2), old_bot(2), old_bot(1)
    start = timezone.now() - timedelta(days=1)
    plan = [
        ([ada, first, second], [[5, 0, 9]]),  # two level-2 seats: 2nd and 3rd
        ([grace, rookie], [[0, 3]]),
        ([second, grace, ada], [[0, 4, 8]]),
        ([first, second], [[6, 0]]),  # level 2 alone: one player once merged
    ]
    matches = []
    for minute, (seated, scores) in enumerate(plan):
        match = make_finished_match(
            seated=seated, scores=scores, finished_at=start + timedelta(minutes=minute)
        )
        match_finalise(match_id=match.pk)
        matches.append(match.pk)
    grace_created = RatingChange.objects.get(match_id=matches[1], player=grace).created_at
    results_before = list(
        MatchResult.objects.order_by("match_id", "seat").values_list("match_id", "seat", "place")
    )

    # when
    migrate_after()

    # then: one player per level; the seats and results moved to it, places as they were
    assert list(Player.objects.filter(kind="bot").order_by("pk").values_list("pk", flat=True)) == [
        first.pk,
        rookie.pk,
    ]
    seated = Seat.objects.filter(match_id=matches[0]).order_by("position")
    assert list(seated.values_list("player_id", flat=True)) == [ada.pk, first.pk, first.pk]
    assert Seat.objects.get(match_id=matches[2], position=0).player_id == first.pk
    results = MatchResult.objects.order_by("match_id", "seat")
    assert list(results.values_list("match_id", "seat", "place")) == results_before
    assert MatchResult.objects.filter(player_id=first.pk).count() == 5
    # level 2 against itself is one player: its results stay, not rated, saying why
    alone = MatchResult.objects.filter(match_id=matches[3])
    assert set(alone.values_list("player_id", "unrated_reason")) == {
        (first.pk, ratings.SINGLE_RATED_PLAYER)
    }
    assert not RatingChange.objects.filter(match_id=matches[3]).exists()
    assert not MatchResult.objects.exclude(match_id=matches[3]).exclude(unrated_reason="").exists()
    # every rating is what the live code would give the merged results, one change a match
    expected = rated_from_scratch("chickenfoot")
    stored = {r.player_id: r for r in Rating.objects.filter(variant="chickenfoot")}
    assert set(stored) == set(expected)
    for player_id, (mu, sigma, count) in expected.items():
        assert stored[player_id].mu == pytest.approx(mu)
        assert stored[player_id].sigma == pytest.approx(sigma)
        assert stored[player_id].matches == count
    assert RatingChange.objects.filter(match_id=matches[0]).count() == 2
    assert stored[first.pk].matches == 2
    last = RatingChange.objects.filter(player_id=first.pk).order_by("-id").first()
    assert last.mu_after == pytest.approx(stored[first.pk].mu)
    assert RatingChange.objects.get(match_id=matches[1], player=grace).created_at == grace_created
    with pytest.raises(IntegrityError), transaction.atomic():
        old_bot(2)

    # when: unapplied
    migrate_before()

    # then: the extra seat has a bot player of its own again, with its results
    seat = Seat.objects.get(match_id=matches[0], position=2)
    assert seat.player_id != first.pk
    assert seat.player.bot_level == 2
    assert MatchResult.objects.get(match_id=matches[0], seat=2).player_id == seat.player_id
    migrate_after()
