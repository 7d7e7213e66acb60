"""Filters of a player's history (django-filter). A bad value is a 400 problem, never an empty
page; so is a parameter no filter knows (a typo must not silently return everything)."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from scoring.models import (
    PLAY_CHOICES,
    VARIANT_CHOICES,
    Competition,
    CompetitionMatch,
    MatchResult,
)
from scoring.selectors import player_exists

#: The match statuses a history row can have (games' ``Match.Status``, by value): only
#: ``finished``. History is made of result rows, and an abandoned match has none (it counts for
#: nobody); the caller's abandoned matches are listed by ``/api/matches/mine?status=abandoned``.
HISTORY_STATUS_CHOICES = [("finished", "Finished")]


@extend_schema_field(OpenApiTypes.INT)
class IntegerFilter(django_filters.NumberFilter):
    """A whole number (``NumberFilter`` takes decimals: ``place=1.5`` must be refused), an
    ``integer`` in the schema too, with the bounds it is given (``min_value``, ``max_value``)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bounds = {"min_value": "minimum", "max_value": "maximum"}
        schema = {"type": "integer"} | {
            keyword: self.extra[name] for name, keyword in bounds.items() if name in self.extra
        }
        if len(schema) > 1:
            extend_schema_field(schema)(self)


class PlayerIdField(forms.IntegerField):
    """A player's id: one that names no player is refused, as a ``competition`` naming none is."""

    def validate(self, value: int | None) -> None:
        super().validate(value)
        if value is not None and not player_exists(player_id=value):
            raise ValidationError(_("There is no player %(id)s."), params={"id": value})


class PlayerFilter(IntegerFilter):
    field_class = PlayerIdField


class HistoryFilter(django_filters.FilterSet):
    """Filters combine (AND)."""

    variant = django_filters.ChoiceFilter(choices=VARIANT_CHOICES, help_text="Only this game.")
    finished_after = django_filters.IsoDateTimeFilter(
        field_name="finished_at",
        lookup_expr="gte",
        help_text="Finished at or after this instant (ISO 8601, e.g. 2026-11-01T00:00:00Z).",
    )
    finished_before = django_filters.IsoDateTimeFilter(
        field_name="finished_at",
        lookup_expr="lt",
        help_text="Finished before this instant (ISO 8601).",
    )
    opponent = PlayerFilter(
        method="filter_opponent",
        min_value=1,
        help_text="Only matches this player (id) also sat at.",
    )
    place = IntegerFilter(
        field_name="place", min_value=1, help_text="Only matches the player finished in this place."
    )
    competition = django_filters.ModelChoiceFilter(
        queryset=Competition.objects.all(),
        method="filter_competition",
        help_text="Only matches that count for this tournament or league (its id, e.g. 3).",
    )
    play = django_filters.ChoiceFilter(
        field_name="match__play",
        choices=PLAY_CHOICES,
        help_text="Only matches played this way: `online`, or `table` (real tiles).",
    )
    status = django_filters.ChoiceFilter(
        field_name="match__status",
        choices=HISTORY_STATUS_CHOICES,
        help_text="The match's status: `finished`, the only one a history holds (a player's "
        "abandoned matches: `GET /api/matches/mine?status=abandoned`).",
    )

    class Meta:
        model = MatchResult
        fields: list[str] = []

    def filter_opponent(
        self, queryset: QuerySet[MatchResult], name: str, value: int
    ) -> QuerySet[MatchResult]:
        others = MatchResult.objects.filter(match_id=OuterRef("match_id"), player_id=int(value))
        return queryset.filter(Exists(others))

    def filter_competition(
        self, queryset: QuerySet[MatchResult], name: str, value: Competition
    ) -> QuerySet[MatchResult]:
        # A match counts for at most one competition: the link's unique match_id index.
        links = CompetitionMatch.objects.filter(match_id=OuterRef("match_id"), competition=value)
        return queryset.filter(Exists(links))
