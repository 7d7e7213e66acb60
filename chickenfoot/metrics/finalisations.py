"""End-of-match tasks still to do, counted in the database when Prometheus scrapes: a figure
every process would otherwise have to agree on, read once from the one place that knows it."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)


class FinalisationsPendingCollector(Collector):
    """``chickenfoot_finalisations_pending``: finished matches whose results are not written
    yet and not given up on (one count on the partial index ``finalisation_pending``); nothing
    at all when the database does not answer."""

    @staticmethod
    def _family() -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "chickenfoot_finalisations_pending",
            "Finished matches whose end-of-match task has not written their results yet "
            "(neither done nor given up on), read at scrape time.",
        )

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield self._family()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from scoring.models import MatchFinalisation

        family = self._family()
        try:
            pending = MatchFinalisation.objects.filter(
                finalised_at__isnull=True, failed_at__isnull=True
            ).count()
        except DatabaseError as exc:
            logger.warning("Pending finalisations not counted: %s", type(exc).__name__)
            return
        family.add_metric([], float(pending))
        yield family
