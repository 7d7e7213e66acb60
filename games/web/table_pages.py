"""The pages of play at a table: the scorer's phone page (``/score/#<code>``, opened from a
scorer link's QR code) and the organiser's dashboard of a stage."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.generic import TemplateView


class ScorerPage(TemplateView):
    """The scorer's page: the same shell for any code (it holds no code and looks none up), so
    it tells nobody whether a code exists; its script reads the code from the address and asks
    the API (``GET /api/scorer``, throttled like every scorer call) what it opens. No referrer
    leaves it, so the code in its address goes nowhere else; nothing keeps a copy."""

    template_name = "games/web/scorer.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(request, *args, **kwargs)
        response["Referrer-Policy"] = "no-referrer"
        response["Cache-Control"] = "no-store"
        response["X-Robots-Tag"] = "noindex"
        return response


class StageDashboardPage(TemplateView):
    """The organiser's view of a table event's stage: each table's progress, disputes to
    resolve, check-in for the next stage, and starting it. Its script polls the API."""

    template_name = "games/web/stage.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["competition_id"] = kwargs["competition_id"]
        context["number"] = kwargs["number"]
        return context
