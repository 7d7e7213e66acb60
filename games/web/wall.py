"""The public wall's page, ``/events/{id}/``: a public competition's standings and tables for
anyone (a phone, or ``?layout=projector`` on a big screen), kept fresh by its socket."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from scoring.competitions.problems import CompetitionNotFound
from scoring.competitions.tie_breaks import LABELS
from scoring.competitions.wall import public_competition_get, wall_body, wall_tie_break_columns

#: The page's layouts (``?layout=``); any other value is the phone's.
LAYOUTS = ("phone", "projector")


class WallPage(TemplateView):
    """The wall as the server renders it (names escaped by the template); its script then
    follows ``/ws/public/competitions/{id}/`` and redraws it from each frame, without a
    reload. A competition that is not public is not found (404), as for none."""

    template_name = "games/web/wall.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        try:
            competition = public_competition_get(competition_id=kwargs["competition_id"])
        except CompetitionNotFound:
            raise Http404(_("No such competition.")) from None
        layout = self.request.GET.get("layout", "phone")
        context["layout"] = layout if layout in LAYOUTS else "phone"
        wall = wall_body(competition=competition)
        keys = wall_tie_break_columns(wall["competition"]["tie_breaks"])
        context["wall"] = wall
        context["tie_breaks"] = [{"key": key, "label": LABELS[key]} for key in keys]
        context["rows"] = [
            {**row, "tie_break_values": [row[key] for key in keys]} for row in wall["standings"]
        ]
        context["clock"] = current_clock(wall)
        return context


def current_clock(wall: dict[str, Any]) -> dict[str, Any] | None:
    """The clock of the stage playing (the competition's current stage), as the page first
    shows it: its state, its end and the time left (``h:mm:ss`` or ``m:ss``) by the server's
    ``now``; ``None``: it has none."""
    number = wall["competition"]["current_stage"]
    stage = next((s for s in wall["stages"] if s["number"] == number), None)
    if stage is None or stage["clock"] is None:
        return None
    clock = stage["clock"]
    left = datetime.fromisoformat(clock["ends_at"]) - datetime.fromisoformat(wall["now"])
    seconds = max(0, -(-int(left.total_seconds() * 1000) // 1000))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    shown = f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
    return {**clock, "left": shown}
