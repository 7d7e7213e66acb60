"""A stage on paper: the table cards (for its organiser) and the pairings sheet (for its
organiser, and for anyone when the competition is public), built by the games app's paper."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from scoring.competitions.dashboard import organiser_stage, stage_tables, started_stage
from scoring.competitions.problems import CompetitionNotFound, NotOrganiser
from scoring.models import Bye, Competition, CompetitionMatch
from scoring.ports import PlayerRef, games_port


def stage_table_cards(
    *, competition: Competition, number: int, caller: PlayerRef, request_base: str
) -> bytes:
    """Stage ``number``'s table cards, one page per table with its scorer code: its organiser
    only (403 ``not_organiser``); 409 ``wrong_stage`` before the stage starts."""
    stage = organiser_stage(
        competition=competition,
        number=number,
        caller=caller,
        refusal=_("Only the organiser of competition %(competition)s can print its table cards."),
    )
    tables = [(t["table_number"], t["match_id"]) for t in stage_tables(stage=stage)]
    return games_port().table_cards_pdf(
        event=competition.name, stage=number, tables=tables, request_base=request_base
    )


def sheet_competition(
    *, competition_id: int, caller: PlayerRef | None, refusal: str
) -> Competition:
    """The competition whose sheets ``caller`` may read: its organiser, or anyone (no token
    needed) when it is public. Otherwise a signed-in caller is refused (403 ``not_organiser``,
    with ``refusal``, which names ``%(competition)s``) and an anonymous one told there is no
    such competition (404), as the public wall does."""
    competition = Competition.objects.filter(pk=competition_id).first()
    if competition is not None and caller is not None and competition.organiser_id == caller.id:
        return competition
    if competition is None or (caller is None and not competition.public):
        raise CompetitionNotFound(
            _("There is no competition %(competition_id)s.") % {"competition_id": competition_id}
        )
    if not competition.public:
        raise NotOrganiser(refusal % {"competition": competition.pk})
    return competition


def pairings_competition(*, competition_id: int, caller: PlayerRef | None) -> Competition:
    """The competition whose pairings ``caller`` may read (``sheet_competition``)."""
    return sheet_competition(
        competition_id=competition_id,
        caller=caller,
        refusal=_(
            "Only the organiser of competition %(competition)s can print "
            "its pairings while it is not public."
        ),
    )


def stage_pairings(*, competition_id: int, number: int, caller: PlayerRef | None) -> bytes:
    """Stage ``number``'s pairings sheet: each table and its players (names as shown), and the
    byes; no scorer code. Who may read it: ``pairings_competition``; 409 ``wrong_stage``
    before the stage starts."""
    competition = pairings_competition(competition_id=competition_id, caller=caller)
    stage = started_stage(competition=competition, number=number)
    names: dict[int, list[str]] = defaultdict(list)
    seats = (
        CompetitionMatch.objects.filter(stage=stage, match__seats__isnull=False)
        .order_by("table_number", "match__seats__position")
        .values_list("table_number", "match__seats__player__display_name")
    )
    for table, name in seats:
        names[table].append(name or "")
    tables = [(t["table_number"], names[t["table_number"]]) for t in stage_tables(stage=stage)]
    byes = list(
        Bye.objects.filter(stage=stage)
        .order_by("player__display_name", "pk")
        .values_list("player__display_name", flat=True)
    )
    return games_port().pairings_pdf(event=competition.name, stage=number, tables=tables, byes=byes)
