"""seed_league writes consistent league rows (COPY on PostgreSQL, bulk_create on SQLite)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db.models import Count

from games.models import Match, Player, Seat
from scoring.competitions import points
from scoring.competitions.standings import standings
from scoring.models import (
    Competition,
    CompetitionMatch,
    CompetitionResult,
    MatchFinalisation,
    MatchResult,
    Rating,
    RatingChange,
    RoundResult,
)
from scoring.order import order_from_rows

pytestmark = pytest.mark.django_db


def test_seed_league_writes_matches_whose_rows_agree_with_each_other() -> None:
    # when: two runs (the second appends, later in time, reusing the players)
    call_command("seed_league", matches=12, players=6, pool=30, seed="t")
    call_command("seed_league", matches=8, players=6, pool=30, seed="t")

    # then
    assert Player.objects.filter(user__username__startswith="league-").count() == 6
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 20
    assert Seat.objects.count() == 80
    assert MatchResult.objects.count() == 80
    assert MatchFinalisation.objects.count() == 20
    assert RatingChange.objects.count() == 80
    per_match = set(
        RoundResult.objects.values("match_id").annotate(n=Count("pk")).values_list("n", flat=True)
    )
    assert per_match <= {10 * 4, 13 * 4}  # Chicken Foot double-9, Mexican Train double-12
    for match in Match.objects.all():
        rows = {r["seat"]: r for r in order_from_rows(match_id=match.pk)}
        for result in MatchResult.objects.filter(match=match):
            assert (result.place, result.total, result.decided_by) == (
                rows[result.seat]["place"],
                rows[result.seat]["total"],
                rows[result.seat]["decided_by"],
            )
        assert {s["seat"]: s["place"] for s in match.standings} == {
            seat: row["place"] for seat, row in rows.items()
        }
    for rating in Rating.objects.all():
        played = MatchResult.objects.filter(
            player_id=rating.player_id, variant=rating.variant
        ).count()
        assert rating.matches == played
    # every match counts for the seeded league of its game, as the end-of-match task counts it
    leagues = {c.variant: c for c in Competition.objects.filter(kind="league")}
    assert sorted(leagues) == ["chickenfoot", "mexican_train"]
    assert CompetitionMatch.objects.filter(finished=True).count() == 20
    assert CompetitionResult.objects.count() == 80
    for link in CompetitionMatch.objects.select_related("match"):
        assert link.competition == leagues[link.match.variant]
        results = list(CompetitionResult.objects.filter(match=link.match).order_by("place"))
        shares = points.table_points(
            places=[r.place for r in results], scheme_places=points.default_places(4)
        )
        assert [r.placement_points for r in results] == shares
    for variant, league in leagues.items():
        table = standings(competition=league)
        assert len(table) == 6  # every league player registered
        for row in table:
            assert (
                row["matches"]
                == MatchResult.objects.filter(player_id=row["player_id"], variant=variant).count()
            )
            assert row["total_points"] == sum(
                MatchResult.objects.filter(player_id=row["player_id"], variant=variant).values_list(
                    "total", flat=True
                )
            )
    times = list(Match.objects.order_by("pk").values_list("finished_at", flat=True))
    assert times == sorted(times)
    # the sequences moved past the copied ids: the next match gets a fresh id
    top = Match.objects.order_by("-pk").values_list("pk", flat=True).first()
    new = Match.objects.create(
        variant="chickenfoot", options={}, seat_count=2, seed="x", created_by=Player.objects.first()
    )
    assert new.pk > top
