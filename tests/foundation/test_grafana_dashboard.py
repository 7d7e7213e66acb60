"""deploy/grafana/chickenfoot-dashboard.json: valid JSON, and every metric its panels query is
one ``/metrics`` exports (docs/operations.md, "Metrics")."""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from rest_framework.test import APIClient

from chickenfoot.metrics.queue_depth import QueueDepthCollector
from tests.foundation.live_server import ROOT

DASHBOARD = ROOT / "deploy" / "grafana" / "chickenfoot-dashboard.json"
#: The sample names a family of each type exports.
SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "summary": ("", "_count", "_sum", "_created"),
    "info": ("_info",),
}
TOKEN = "the-dashboard-test-token"


def queried_metrics(dashboard: dict[str, Any]) -> set[str]:
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    return {name for expr in exprs for name in re.findall(r"\bchickenfoot_[a-z_]+\b", expr)}


def exported(text: str) -> set[str]:
    return {
        family.name + suffix
        for family in text_string_to_metric_families(text)
        for suffix in SUFFIXES.get(family.type, ("",))
    }


@pytest.mark.django_db
def test_every_panel_queries_a_metric_the_endpoint_exports(settings: Any) -> None:
    settings.METRICS_TOKEN = TOKEN
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    response = APIClient().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == HTTPStatus.OK
    # the queue depth is read from Redis at scrape time: its name as the collector declares it
    queue_depth = {family.name for family in QueueDepthCollector("", []).describe()}

    queried = queried_metrics(dashboard)

    assert dashboard["panels"], "the dashboard has panels"
    assert all(panel["targets"] for panel in dashboard["panels"])
    assert {
        "chickenfoot_moves_total",
        "chickenfoot_http_request_duration_seconds_bucket",
    } <= queried
    missing = queried - exported(response.content.decode()) - queue_depth
    assert not missing, f"the dashboard queries metrics /metrics does not export: {missing}"
    # every panel reads the data source chosen when it is imported
    assert {panel["datasource"]["uid"] for panel in dashboard["panels"]} == {"${DS_PROMETHEUS}"}
