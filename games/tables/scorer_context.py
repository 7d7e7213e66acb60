"""What a scorer link opens, for the scorer's page: its match, and where that match is played."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Match, Player
from games.problems import NotScorer
from games.tables.scorer_links import ScorerPrincipal
from scoring.competition_models import CompetitionMatch
from scoring.competitions.wall import wall_clock


def scorer_context(*, caller: Player | ScorerPrincipal) -> dict[str, Any]:
    """The match a scorer code opens (``match_id``, ``variant``) and, when it is a table of a
    competition, the competition's ``id`` and ``name``, the ``stage`` and the ``table`` (else
    ``event`` is ``None``), with its stage's clock as the wall shows it (``clock``, ``None``:
    none) and the server's ``now``, so that the page counts down from the server's time. A
    player's token opens no link: 403 ``not_scorer``."""
    if not isinstance(caller, ScorerPrincipal):
        raise NotScorer(_("Only a scorer link's code answers this: send `Authorization: Scorer`."))
    match = Match.objects.only("pk", "variant").get(pk=caller.match_id)
    link = (
        CompetitionMatch.objects.filter(match_id=match.pk)
        .select_related("competition", "stage")
        .only(
            "table_number",
            "competition__id",
            "competition__name",
            "stage__number",
            "stage__clock_started_at",
            "stage__clock_ends_at",
        )
        .first()
    )
    event = None
    now = timezone.now()
    if link is not None:
        event = {
            "competition_id": link.competition.pk,
            "name": link.competition.name,
            "stage": link.stage.number if link.stage is not None else None,
            "table": link.table_number,
            "clock": wall_clock(stage=link.stage, now=now) if link.stage is not None else None,
        }
    return {"match_id": match.pk, "variant": match.variant, "event": event, "now": now}
