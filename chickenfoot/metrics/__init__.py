"""Prometheus metrics (docs/operations.md, "Metrics"): what is counted, the endpoint that
serves them, and the collectors it adds at scrape time."""
