"""The Django admin for players, matches, seats, rounds and the move log (read-mostly)."""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.http import HttpRequest

from games.accounts.names import display_name_problem
from games.models import DeviceToken, Match, Move, Player, Round, Seat


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


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "start_double", "status", "commitment", "seed_revealed", "scores")
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "variant", "status", "seat_count", "version", "created_by", "created_at")
    list_filter = ("variant", "status")
    search_fields = ("id", "created_by__display_name")
    raw_id_fields = ("created_by", "current_round")
    readonly_fields = ("seed", "version", "moves_played", "state", "standings")
    inlines = (SeatInline, RoundInline)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "start_double", "status")
    list_filter = ("status",)
    raw_id_fields = ("match",)
    readonly_fields = ("snapshot", "commitment", "seed_revealed", "scores")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    """The log is append-only: the admin shows it and never changes it."""

    list_display = ("id", "match", "seq", "seat", "kind", "tile", "target", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("match", "round")

    def has_add_permission(self, request: object) -> bool:
        return False

    def has_change_permission(self, request: object, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: object, obj: object = None) -> bool:
        return False


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
