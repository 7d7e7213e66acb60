"""The metrics the service records, all named ``chickenfoot_...`` (docs/operations.md, "Metrics").

Labels hold bounded values only: a URL pattern's route (never a path with ids in it), a method,
a status, a variant, a rule id, a task's name. Nothing about a player, a hand or a token.
Each process records its own; with ``PROMETHEUS_MULTIPROC_DIR`` set prometheus_client keeps them
in files there, and ``/metrics`` adds up every process's (``chickenfoot.metrics.endpoint``).
"""

from __future__ import annotations

import time
from datetime import datetime

from django.db import transaction
from prometheus_client import Counter, Gauge, Histogram

REQUESTS = Counter(
    "chickenfoot_http_requests",
    "HTTP requests answered, by URL route, method and status.",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "chickenfoot_http_request_duration_seconds",
    "Seconds from a request's arrival in Django to its answer, by URL route and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
MOVES = Counter(
    "chickenfoot_moves",
    "Moves applied and committed, by game (a bot's and a timed-out seat's too).",
    ["variant"],
)
BOT_TURN_SECONDS = Histogram(
    "chickenfoot_bot_turn_seconds",
    "Seconds from the start of a bot's turn (the commit of the move that gave it the turn, or "
    "the sweeper's queuing it again) to the commit of the bot's move, by game.",
    ["variant"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
)
REFUSALS = Counter(
    "chickenfoot_refusals",
    "Requests refused for breaking a rule (a RuleViolation problem), by rule id.",
    ["rule"],
)
TASKS = Counter(
    "chickenfoot_celery_tasks",
    "Celery tasks run, by task name and outcome (success, failure, retry).",
    ["task", "outcome"],
)
FINALISATIONS_FAILED = Counter(
    "chickenfoot_finalisations_failed",
    "End-of-match tasks given up on: results that could not be written (the match marked failed).",
)
SWEEPS_ACTED = Counter(
    "chickenfoot_sweeper_requeues",
    "Items the sweeper queued again or acted on, by sweep (bot_turns, results, clocks, ...): "
    "work whose message was lost or whose worker died.",
    ["kind"],
)
SCORE_ENTRIES = Counter(
    "chickenfoot_score_entries",
    "Score entries kept for matches played at a table (a round's scores, or a correction).",
    ["kind"],
)
SOCKETS_OPEN = Gauge(
    "chickenfoot_sockets_open",
    "WebSockets open now (match sockets, the players' own, the public walls).",
    ["socket"],
    multiprocess_mode="livesum",
)
FRAMES_SENT = Counter(
    "chickenfoot_socket_frames_sent",
    "Frames sent on WebSockets, by socket kind.",
    ["socket"],
)

#: The methods a route label is counted with; any other is counted as ``other``.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def observe_since_on_commit(histogram: Histogram, since: datetime, **labels: str) -> None:
    """Observe the seconds from ``since`` to the commit of the current transaction."""
    child = histogram.labels(**labels) if labels else histogram
    transaction.on_commit(lambda: child.observe(max(0.0, time.time() - since.timestamp())))


def count_on_commit(counter: Counter, **labels: str) -> None:
    """Count one on ``counter`` when the current transaction commits (at once outside one)."""
    child = counter.labels(**labels) if labels else counter
    transaction.on_commit(child.inc)
