"""Table events: check-in before each stage (self, by the organiser, undo, close, the start
closes it), no-shows not seated, drop-outs seated no more and still in the standings."""

from __future__ import annotations

import pytest

from games.models import Match, Player, Seat
from scoring.competitions.checkins import (
    check_in_close,
    check_in_create,
    check_in_undo,
    check_ins_list,
    player_drop,
)
from scoring.competitions.problems import (
    InvalidCompetition,
    NotOrganiser,
    NotRegistered,
    TooFewPlayers,
    WrongCompetitionStatus,
)
from scoring.competitions.services import (
    competition_close,
    registration_create,
    registration_withdraw,
    stage_start,
)
from scoring.competitions.standings import standings
from scoring.models import Bye, CheckIn, Competition, CompetitionMatch
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.conftest import make_competition, ref

pytestmark = pytest.mark.django_db


def _table_event(organiser: Player, count: int, **fields: object) -> tuple[Competition, list]:
    competition = make_competition(
        organiser, play="table", table_size=2, stage_count=2, options={"rounds": 2}, **fields
    )
    field = [PlayerFactory(display_name=f"P{n}") for n in range(count)]
    for player in field:
        registration_create(competition_id=competition.pk, player=ref(player))
    competition_close(competition_id=competition.pk, player=ref(organiser))
    return competition, field


def _seated(stage_number: int, competition: Competition) -> set[int]:
    matches = CompetitionMatch.objects.filter(
        competition=competition, stage__number=stage_number
    ).values("match_id")
    return set(Seat.objects.filter(match_id__in=matches).values_list("player_id", flat=True))


def test_players_check_in_themselves_or_by_the_organiser_and_undo(organiser: Player) -> None:
    competition, (ann, ben, cat) = _table_event(organiser, 3)
    # when
    check_in_create(competition_id=competition.pk, caller=ref(ann), player_id=None)
    check_in_create(competition_id=competition.pk, caller=ref(ann), player_id=None)  # twice
    check_in_create(competition_id=competition.pk, caller=ref(organiser), player_id=ben.pk)
    check_in_create(competition_id=competition.pk, caller=ref(cat), player_id=None)
    check_in_undo(competition_id=competition.pk, player=ref(cat))
    # then
    listed = check_ins_list(competition=Competition.objects.get(pk=competition.pk))
    assert listed["stage"] == 1
    assert listed["open"] is True
    assert [(row["player_id"], row["by_organiser"]) for row in listed["check_ins"]] == [
        (ann.pk, False),
        (ben.pk, True),
    ]


def test_only_the_organiser_checks_someone_else_in(organiser: Player) -> None:
    competition, (ann, ben) = _table_event(organiser, 2)
    with pytest.raises(NotOrganiser):
        check_in_create(competition_id=competition.pk, caller=ref(ann), player_id=ben.pk)
    outsider = PlayerFactory()
    with pytest.raises(NotRegistered):
        check_in_create(competition_id=competition.pk, caller=ref(outsider), player_id=None)
    assert not CheckIn.objects.exists()


def test_closed_check_in_takes_nobody_and_undoes_nothing(organiser: Player) -> None:
    competition, (ann, ben, cat) = _table_event(organiser, 3)
    for player in (ann, ben):
        check_in_create(competition_id=competition.pk, caller=ref(player), player_id=None)
    # when
    check_in_close(competition_id=competition.pk, player=ref(organiser))
    # then
    with pytest.raises(WrongCompetitionStatus, match="closed"):
        check_in_create(competition_id=competition.pk, caller=ref(cat), player_id=None)
    with pytest.raises(WrongCompetitionStatus, match="closed"):
        check_in_undo(competition_id=competition.pk, player=ref(ann))
    assert check_ins_list(competition=Competition.objects.get(pk=competition.pk))["open"] is False


def test_no_shows_are_not_seated_and_the_start_closes_check_in(organiser: Player) -> None:
    competition, field = _table_event(organiser, 5)
    present = field[:4]
    for player in present:
        check_in_create(competition_id=competition.pk, caller=ref(player), player_id=None)
    # when
    stage_start(competition_id=competition.pk, player=ref(organiser), number=1)
    # then: the four who came play at two tables; the no-show has no seat and no bye
    assert _seated(1, competition) == {p.pk for p in present}
    assert not Bye.objects.filter(competition=competition).exists()
    assert set(
        Match.objects.filter(competition_match__competition=competition).values_list(
            "play", flat=True
        )
    ) == {"table"}
    # the start closed stage 1's check-in: a late comer checks in for stage 2
    late = check_in_create(competition_id=competition.pk, caller=ref(field[4]), player_id=None)
    assert late.stage_number == 2
    assert Competition.objects.get(pk=competition.pk).check_in_closed_stage == 1
    assert _seated(1, competition) == {p.pk for p in present}


def test_a_stage_needs_two_checked_in(organiser: Player) -> None:
    competition, (ann, _ben) = _table_event(organiser, 2)
    check_in_create(competition_id=competition.pk, caller=ref(ann), player_id=None)
    with pytest.raises(TooFewPlayers):
        stage_start(competition_id=competition.pk, player=ref(organiser), number=1)
    assert not CompetitionMatch.objects.exists()


def test_online_events_have_no_check_in(organiser: Player) -> None:
    competition = make_competition(organiser)
    player = PlayerFactory()
    registration_create(competition_id=competition.pk, player=ref(player))
    with pytest.raises(WrongCompetitionStatus, match="online"):
        check_in_create(competition_id=competition.pk, caller=ref(player), player_id=None)


def test_drop_outs_are_not_seated_again_and_stay_in_the_standings(organiser: Player) -> None:
    competition, (ann, ben, cat, dan) = _table_event(organiser, 4)
    for player in (ann, ben, cat, dan):
        check_in_create(competition_id=competition.pk, caller=ref(player), player_id=None)
    stage_start(competition_id=competition.pk, player=ref(organiser), number=1)
    # when: the organiser drops Cat, Dan withdraws once the event has started
    player_drop(competition_id=competition.pk, caller=ref(organiser), player_id=cat.pk)
    registration_withdraw(competition_id=competition.pk, player=ref(dan))
    # then
    with pytest.raises(WrongCompetitionStatus, match="dropped"):
        check_in_create(competition_id=competition.pk, caller=ref(cat), player_id=None)
    rows = {row["player_id"]: row["dropped"] for row in standings(competition=competition)}
    assert rows == {ann.pk: False, ben.pk: False, cat.pk: True, dan.pk: True}
    with pytest.raises(NotOrganiser):
        player_drop(competition_id=competition.pk, caller=ref(ann), player_id=ben.pk)


def test_online_drop_outs_are_not_seated_again(organiser: Player) -> None:
    competition = make_competition(organiser, table_size=2, stage_count=2, allow_bots=True)
    field = [PlayerFactory() for _ in range(4)]
    for player in field:
        registration_create(competition_id=competition.pk, player=ref(player))
    competition_close(competition_id=competition.pk, player=ref(organiser))
    stage_start(competition_id=competition.pk, player=ref(organiser), number=1)
    player_drop(competition_id=competition.pk, caller=ref(organiser), player_id=field[0].pk)
    for link in CompetitionMatch.objects.filter(competition=competition):
        Match.objects.filter(pk=link.match_id).update(status="abandoned")
    # when
    stage_start(competition_id=competition.pk, player=ref(organiser), number=2)
    # then
    seated = _seated(2, competition)
    assert field[0].pk not in seated
    assert {p.pk for p in field[1:]} <= seated


def test_a_table_event_refuses_what_a_table_lacks(organiser: Player) -> None:
    with pytest.raises(InvalidCompetition) as refused:
        make_competition(
            organiser,
            play="table",
            allow_bots=True,
            turn_seconds=30,
            options={"rounds": 2, "hand_size": 7},
        )
    assert set(refused.value.extra["errors"]) >= {"allow_bots", "turn_seconds", "options.hand_size"}


@pytest.mark.parametrize("checked_in", range(2, 14))
def test_byes_at_a_table_event_go_to_those_checked_in(organiser: Player, checked_in: int) -> None:
    # given: one more registered than checked in, at tables of 2
    competition, field = _table_event(organiser, checked_in + 1)
    present, no_show = field[:checked_in], field[checked_in]
    for player in present:
        check_in_create(competition_id=competition.pk, caller=ref(player), player_id=None)
    # when
    stage_start(competition_id=competition.pk, player=ref(organiser), number=1)
    # then: an odd number present is one bye among them; everybody else present is seated
    byes = set(Bye.objects.filter(competition=competition).values_list("player_id", flat=True))
    assert len(byes) == checked_in % 2
    assert no_show.pk not in byes
    assert _seated(1, competition) | byes == {p.pk for p in present}
    assert not _seated(1, competition) & byes
