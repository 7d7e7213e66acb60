"""Admin pages that show rows the services write, and never add, change or delete one.

A match's rows (seats, rounds, moves) and the scoring rows (results, ratings, competitions) are
written by their services only; an admin action that acts on them calls the service.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest


class ReadOnly:
    """No add, change or delete permission, whoever asks."""

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """Shown, never added, changed or deleted in the admin (the services write these rows)."""


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    """A read-only table of a row's children on its page."""

    extra = 0
    can_delete = False
