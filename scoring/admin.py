"""The Django admin for the end-of-match markers: which matches wait, or failed, and why."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from scoring.models import MatchFinalisation


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
class MatchFinalisationAdmin(admin.ModelAdmin):
    list_display = ("match", "queued_at", "attempts", "finalised_at", "failed_at", "last_error")
    list_filter = (FinalisationState,)
    readonly_fields = (
        "match",
        "queued_at",
        "attempts",
        "finalised_at",
        "failed_at",
        "engine_agreed",
        "last_error",
    )
    ordering = ("-queued_at",)
