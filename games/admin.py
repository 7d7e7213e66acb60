"""The Django admin for players, matches, seats, rounds and the move log.

Players are edited here (the organiser flag, a display name under the registration's rule).
A match's rows are the engine's: matches, seats, rounds and moves are shown and never added,
changed or deleted here, and what may happen to a match goes through its services, as admin
actions (abandon it: ``match_abandon``; replay it against its log: ``match_replay_verify``).
While a match is open or playing, what its players must not see (the seed, the live state,
the rounds' snapshots and seeds, the moves' unredacted events) is left out of its pages.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from chickenfoot.problems import ProblemError
from chickenfoot.read_only_admin import ReadOnlyAdmin, ReadOnlyInline
from games.accounts.names import display_name_problem
from games.accounts.players import player_for_user
from games.models import DeviceToken, KnownDevice, Match, Move, Player, Round, Seat
from games.services.leaving import match_abandon
from games.services.replay import match_replay_verify

#: Statuses whose hidden information (hands, boneyard, seeds) is still in play.
IN_PLAY = (Match.Status.OPEN, Match.Status.PLAYING)


class PlayerForm(forms.ModelForm):
    """A display name set here follows the same rule as one chosen at registration."""

    class Meta:
        model = Player
        fields = "__all__"  # noqa: DJ007 - the admin edits every field

    def clean_display_name(self) -> str:
        name: str = self.cleaned_data["display_name"]
        if problem := display_name_problem(name):
            raise forms.ValidationError(problem)
        return name


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ("id", "display_name", "kind", "bot_level", "is_organiser", "user")
    list_filter = ("kind", "is_organiser")
    search_fields = ("display_name", "user__username")
    raw_id_fields = ("user",)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "player", "joined_at", "left", "left_at", "bot_level")


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "start_double", "status", "commitment", "seed_revealed", "scores")
    show_change_link = True

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.status in IN_PLAY:
            return [f for f in self.fields if f != "seed_revealed"]
        return self.fields


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "variant", "status", "seat_count", "version", "created_by", "created_at")
    list_filter = ("variant", "status")
    search_fields = ("id", "created_by__display_name")
    inlines = (SeatInline, RoundInline)
    actions = ("abandon", "verify_replay")
    #: Fields hidden while the match is open or playing.
    hidden_in_play = ("seed", "state", "current_round")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [f.name for f in Match._meta.concrete_fields if f.name != "id"]
        if obj is not None and obj.status in IN_PLAY:
            fields = [f for f in fields if f not in self.hidden_in_play]
        return fields

    @admin.action(description="Abandon the selected matches (no results, no standings)")
    def abandon(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        player = player_for_user(user=request.user)  # type: ignore[arg-type]
        for match in queryset.order_by("pk"):
            try:
                match_abandon(match_id=match.pk, player=player)
            except ProblemError as exc:
                self.message_user(request, f"Match {match.pk}: {exc.detail}", messages.ERROR)
            else:
                self.message_user(request, f"Match {match.pk}: abandoned.", messages.SUCCESS)

    @admin.action(description="Replay and compare the selected matches with what was stored")
    def verify_replay(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset.order_by("pk"):
            report = match_replay_verify(match_id=match.pk)
            if report.ok:
                self.message_user(
                    request,
                    f"Match {match.pk}: replay agrees "
                    f"({report.moves} moves, {report.snapshots} snapshots).",
                    messages.SUCCESS,
                )
            else:
                problems = "; ".join(report.problems)
                self.message_user(request, f"Match {match.pk}: {problems}", messages.ERROR)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("id", "match", "number", "start_double", "status")
    list_filter = ("status",)
    search_fields = ("=match__id",)
    hidden_in_play = ("snapshot", "seed_revealed")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [f.name for f in Round._meta.concrete_fields if f.name != "id"]
        if obj is not None and obj.match.status in IN_PLAY:
            fields = [f for f in fields if f not in self.hidden_in_play]
        return fields


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    """The log is append-only: the admin shows it and never changes it."""

    list_display = ("id", "match", "seq", "seat", "kind", "tile", "target", "created_at")
    list_filter = ("kind",)
    search_fields = ("=match__id",)
    hidden_in_play = ("events", "response")

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [f.name for f in Move._meta.concrete_fields if f.name != "id"]
        if obj is not None and obj.match.status in IN_PLAY:
            fields = [f for f in fields if f not in self.hidden_in_play]
        return fields


@admin.register(DeviceToken)
class DeviceTokenAdmin(admin.ModelAdmin):
    """API tokens: seen and revoked (deleted) here, never made (a key is shown only at login)."""

    list_display = ("id", "user", "device", "created", "expiry", "last_used")
    search_fields = ("user__username", "device")
    fields = ("user", "device", "created", "expiry", "last_used")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(KnownDevice)
class KnownDeviceAdmin(admin.ModelAdmin):
    """Known devices: seen, and forgotten (deleted: the device's credential stops counting, and
    its lock with it), never made (a credential is given only at a log-in)."""

    list_display = ("id", "user", "created", "last_login", "failures", "failed_since")
    search_fields = ("user__username",)
    fields = list_display
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
