"""URLs of the scoring API, mounted under ``/api/`` by the root urls."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver

urlpatterns: list[URLPattern | URLResolver] = []
