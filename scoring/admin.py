"""The Django admin for the scoring rows: competitions, results, ratings, end-of-match markers.

Every row here is written by the scoring services (the end-of-match task, the competition
services), so the admin shows them and never adds, changes or deletes one; where an operator
may act, an admin action calls the service (``match_finalise``: run a match's end-of-match task
again). The end-of-match markers list which matches wait, or failed, and why.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from chickenfoot.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from scoring.models import (
    Bye,
    Competition,
    CompetitionMatch,
    CompetitionResult,
    MatchFinalisation,
    MatchResult,
    Rating,
    RatingChange,
    Registration,
    Stage,
)
from scoring.ratings import display_rating
from scoring.services import match_finalise


class FinalisationState(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin) -> list[tuple[str, str]]:
        return [("pending", "Pending"), ("failed", "Failed"), ("finalised", "Finalised")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[MatchFinalisation]
    ) -> QuerySet[MatchFinalisation]:
        pending = queryset.filter(finalised_at__isnull=True)
        if self.value() == "pending":
            return pending.filter(failed_at__isnull=True)
        if self.value() == "failed":
            return pending.filter(failed_at__isnull=False)
        if self.value() == "finalised":
            return queryset.filter(finalised_at__isnull=False)
        return queryset


@admin.register(MatchFinalisation)
class MatchFinalisationAdmin(ReadOnlyAdmin):
    list_display = ("match", "queued_at", "attempts", "finalised_at", "failed_at", "last_error")
    list_filter = (FinalisationState,)
    search_fields = ("=match__id",)
    ordering = ("-queued_at",)
    actions = ("finalise",)

    @admin.action(description="Run the end-of-match task of the selected matches again")
    def finalise(self, request: HttpRequest, queryset: QuerySet[MatchFinalisation]) -> None:
        for marker in queryset.order_by("match_id"):
            outcome = match_finalise(match_id=marker.match_id)
            if outcome.written:
                self.message_user(
                    request, f"Match {marker.match_id}: results written.", messages.SUCCESS
                )
            else:
                self.message_user(
                    request,
                    f"Match {marker.match_id}: nothing written ({outcome.reason}).",
                    messages.ERROR if outcome.failed else messages.WARNING,
                )


class RegistrationInline(ReadOnlyInline):
    model = Registration
    fields = ("player", "registered_at", "withdrawn_at", "rating_at_finish")


class StageInline(ReadOnlyInline):
    model = Stage
    fields = ("number", "status", "started_at", "finished_at")


@admin.register(Competition)
class CompetitionAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "name",
        "kind",
        "variant",
        "status",
        "table_size",
        "allow_bots",
        "current_stage",
        "stage_count",
        "organiser",
        "created_at",
        "finished_at",
    )
    list_filter = ("kind", "status", "variant", "allow_bots")
    search_fields = ("name", "organiser__display_name")
    #: The seed seats every stage: never shown.
    exclude = ("seed",)
    inlines = (RegistrationInline, StageInline)


@admin.register(CompetitionMatch)
class CompetitionMatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "competition", "stage", "table_number", "match", "finished")
    list_filter = ("finished", "competition__kind")
    search_fields = ("competition__name", "=match__id")


@admin.register(CompetitionResult)
class CompetitionResultAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "competition",
        "stage",
        "match",
        "player",
        "place",
        "table_players",
        "points",
        "total",
        "rounds_played",
    )
    list_filter = ("competition__kind", "place")
    search_fields = ("competition__name", "player__display_name", "=match__id")

    @admin.display(description="placement points", ordering="placement_points")
    def points(self, result: CompetitionResult) -> str:
        return f"{result.placement_points / 1000:.3f}"


@admin.register(Bye)
class ByeAdmin(ReadOnlyAdmin):
    list_display = ("id", "competition", "stage", "player", "points")
    search_fields = ("competition__name", "player__display_name")

    @admin.display(description="placement points", ordering="placement_points")
    def points(self, bye: Bye) -> str:
        return f"{bye.placement_points / 1000:.3f}"


@admin.register(MatchResult)
class MatchResultAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "match",
        "seat",
        "player",
        "place",
        "total",
        "zero_rounds",
        "lowest_round",
        "decided_by",
        "variant",
        "finished_at",
    )
    list_filter = ("variant", "decided_by", "place")
    search_fields = ("player__display_name", "=match__id")
    date_hierarchy = "finished_at"


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("player", "variant", "shown", "ordinal", "mu", "sigma", "matches", "updated_at")
    list_filter = ("variant",)
    search_fields = ("player__display_name",)
    ordering = ("variant", "-ordinal")

    @admin.display(description="rating", ordering="ordinal")
    def shown(self, rating: Rating) -> int:
        return display_rating(rating.ordinal)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "player",
        "match",
        "variant",
        "ordinal_before",
        "ordinal_after",
        "created_at",
    )
    list_filter = ("variant",)
    search_fields = ("player__display_name", "=match__id")
