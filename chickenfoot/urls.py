"""Root URLs. Each app's API lives under ``/api/`` in its own ``urls.py``."""

from __future__ import annotations

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularAPIView

from chickenfoot.api_docs import redoc_view, swagger_view
from chickenfoot.health import HealthApi
from chickenfoot.health_probes import HealthLiveApi, HealthReadyApi
from chickenfoot.metrics.endpoint import metrics_view

urlpatterns = [
    # The games' API first: a turn's requests are matched against fewer patterns.
    path("api/", include("games.urls")),
    path("api/health", HealthApi.as_view(), name="health"),
    path("api/health/live", HealthLiveApi.as_view(), name="health-live"),
    path("api/health/ready", HealthReadyApi.as_view(), name="health-ready"),
    # Not part of the API (left out of the schema): Prometheus' scrape, docs/operations.md.
    path("metrics", metrics_view, name="metrics"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", swagger_view(url_name="schema"), name="docs"),
    path("api/redoc/", redoc_view(url_name="schema"), name="redoc"),
    path("api/", include("scoring.urls")),
    path("admin/", admin.site.urls),
    # The pages' messages in the answer's language: gettext(), ngettext(), interpolate().
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    # The picker of a page without scripts (an account link's): a form that sets the cookie.
    path("i18n/setlang/", set_language, name="set_language"),
    path("account/", include("games.accounts.urls")),
    path("", include("games.web.urls")),
]

handler400 = "chickenfoot.problem_views.bad_request"
handler403 = "chickenfoot.problem_views.permission_denied"
handler404 = "chickenfoot.problem_views.not_found"
handler500 = "chickenfoot.problem_views.server_error"
