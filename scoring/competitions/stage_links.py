"""The scorer links of a stage's tables, for the organiser to print or hand out."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring.competitions.dashboard import organiser_stage, stage_tables
from scoring.models import Competition
from scoring.ports import PlayerRef, games_port


def stage_scorer_links(
    *, competition: Competition, number: int, caller: PlayerRef, request_base: str
) -> dict[str, Any]:
    """Each table of stage ``number`` with its scorer link: ``table``, ``match_id``,
    ``link_id``, ``code``, ``url``, ``revoked`` and ``needs_new_link``. Only the organiser
    (403 ``not_organiser``); a stage not yet started is 409 ``wrong_stage``. An online event's
    tables have no links (``link_id`` null)."""
    stage = organiser_stage(
        competition=competition,
        number=number,
        caller=caller,
        refusal=_("Only the organiser of competition %(competition)s can see its scorer links."),
    )
    tables = stage_tables(stage=stage)
    links = games_port().tables_scorer_links(
        match_ids=[table["match_id"] for table in tables], request_base=request_base
    )
    return {
        "stage": number,
        "tables": [
            {
                "table": table["table_number"],
                "match_id": table["match_id"],
                **links[table["match_id"]],
            }
            for table in tables
        ],
    }
