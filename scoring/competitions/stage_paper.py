"""A stage on paper: the table cards (for its organiser) and the pairings sheet (for its
organiser, and for anyone when the competition is public), built by the games app's paper.

At an event with divisions both are printed for one division (``division``, checked after the
caller: 404 ``division_not_found`` for a name the event has no division of) or for each in
turn: each table card names its table's division, and the pairings give each division pages
of its own under its heading (a division with neither tables nor byes is left out)."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from scoring.competitions.dashboard import organiser_stage, stage_tables, started_stage
from scoring.competitions.divisions import division_param
from scoring.competitions.problems import CompetitionNotFound, NotOrganiser
from scoring.models import Bye, Competition, CompetitionMatch, Registration, Stage
from scoring.ports import PlayerRef, games_port


def table_divisions(*, competition: Competition, stage: Stage) -> dict[int, str]:
    """Each table's division at an event with divisions (by table number: its entrants'); empty
    without divisions."""
    if not competition.divisions:
        return {}
    of = dict(
        Registration.objects.filter(competition=competition).values_list("player_id", "division")
    )
    found: dict[int, str] = {}
    for table, player_id in CompetitionMatch.objects.filter(stage=stage).values_list(
        "table_number", "match__seats__player_id"
    ):
        if of.get(player_id):
            found.setdefault(table, of[player_id])
    return found


def stage_table_cards(
    *,
    competition: Competition,
    number: int,
    caller: PlayerRef,
    request_base: str,
    division: str | None = None,
) -> bytes:
    """Stage ``number``'s table cards, one page per table with its scorer code (of ``division``
    alone, when given): its organiser only (403 ``not_organiser``); 409 ``wrong_stage`` before
    the stage starts."""
    stage = organiser_stage(
        competition=competition,
        number=number,
        caller=caller,
        refusal=_("Only the organiser of competition %(competition)s can print its table cards."),
    )
    wanted = division_param(competition, division)
    of = table_divisions(competition=competition, stage=stage)
    tables = [
        (t["table_number"], t["match_id"])
        for t in stage_tables(stage=stage)
        if wanted is None or of.get(t["table_number"]) == wanted
    ]
    return games_port().table_cards_pdf(
        event=competition.name,
        stage=number,
        tables=tables,
        request_base=request_base,
        divisions=of or None,
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


def stage_pairings(
    *, competition_id: int, number: int, caller: PlayerRef | None, division: str | None = None
) -> bytes:
    """Stage ``number``'s pairings sheet: each table and its players (names as shown), and the
    byes (of ``division`` alone, when given); no scorer code. Who may read it:
    ``pairings_competition``; 409 ``wrong_stage`` before the stage starts."""
    competition = pairings_competition(competition_id=competition_id, caller=caller)
    wanted = division_param(competition, division)
    stage = started_stage(competition=competition, number=number)
    names: dict[int, list[str]] = defaultdict(list)
    seats = (
        CompetitionMatch.objects.filter(stage=stage, match__seats__isnull=False)
        .order_by("table_number", "match__seats__position")
        .values_list("table_number", "match__seats__player__display_name")
    )
    for table, name in seats:
        names[table].append(name or "")
    of = table_divisions(competition=competition, stage=stage)
    tables = [(t["table_number"], names[t["table_number"]]) for t in stage_tables(stage=stage)]
    byes = list(
        Bye.objects.filter(stage=stage)
        .order_by("player__display_name", "pk")
        .values_list("player__display_name", "registration__division")
    )
    if not competition.divisions:
        sections = [{"division": None, "tables": tables, "byes": [name for name, _d in byes]}]
    else:
        sections = [
            {
                "division": name,
                "tables": [(t, seats) for t, seats in tables if of.get(t) == name],
                "byes": [bye for bye, bye_division in byes if bye_division == name],
            }
            for name in competition.division_names
            if wanted in (None, name)
        ]
        sections = [s for s in sections if wanted or s["tables"] or s["byes"]]
    return games_port().pairings_pdf(event=competition.name, stage=number, sections=sections)
