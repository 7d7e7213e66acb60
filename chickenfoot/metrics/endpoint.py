"""``GET /metrics``: the Prometheus text format, for a bearer of ``METRICS_TOKEN`` or a client
in ``METRICS_ALLOW_NETWORKS``; anyone else gets the 404 of a path that does not exist.

A plain Django view, not a DRF one: it is not part of the API, and the OpenAPI schema leaves it
out. With ``PROMETHEUS_MULTIPROC_DIR`` set (granian's workers), the figures are every process's
that writes there, added up by prometheus_client's ``MultiProcessCollector``.
"""

from __future__ import annotations

import os

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from chickenfoot.metrics.access import metrics_readable
from chickenfoot.metrics.finalisations import FinalisationsPendingCollector
from chickenfoot.metrics.queue_depth import queue_depth_collector


def metrics_text() -> bytes:
    """Every metric of this process (or of every process, in multiprocess mode), the pending
    end-of-match tasks, and the queues' depth when there is a broker."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        text = generate_latest(registry)
    else:
        text = generate_latest(REGISTRY)
    extra = CollectorRegistry()
    extra.register(FinalisationsPendingCollector())
    collector = queue_depth_collector()
    if collector is not None:
        extra.register(collector)
    return text + generate_latest(extra)


def metrics_view(request: HttpRequest) -> HttpResponse:
    """The metrics; the 404 of an unknown path for anyone who may not read them (whatever the
    method: nothing tells them that something is here)."""
    if not metrics_readable(request):
        raise Http404
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)
