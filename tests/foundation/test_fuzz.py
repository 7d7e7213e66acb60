"""Fuzzing every endpoint (schemathesis): no input gets a 5xx, and every answer fits the schema.

For each operation of ``/api/schema/``, schemathesis generates requests from the schema, both
valid ones (positive) and ones that break it (negative: wrong types, missing or extra fields,
out-of-range values), and sends them to the app in-process (WSGI) on the test database, as a
signed-in player (an organiser, seated at matches) with ids that exist mixed with ids that do
not, so that the paths past "no such match" are reached. Each answer must not be a 5xx and must
conform to the schema: a documented status, its content type, its headers, its body. A header
the schema requires is not ignored when left out, and a method the path has no operation for
is a 405. A valid request is not refused but for the reasons ``REFUSED_BY_DESIGN`` and
``BREAKS_THE_RULES`` give (``positive_data_acceptance``), and an operation that declares security
refuses the same request without the token and with a wrong one (``ignored_auth``). Sequences of
calls: ``tests/foundation/test_fuzz_stateful.py``.

``FUZZ_CASES`` (default 25) bounds the cases per operation and mode; the run is derandomised so
that CI always sends the same cases (``FUZZ_RANDOM=1`` explores). docs/reliability.md, "Bad
input", has the figures.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Iterator
from http import HTTPStatus
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    missing_required_header,
    negative_data_rejection,
    positive_data_acceptance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from games.models import Player
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.factories import PlayerFactory, token_for
from tests.games.schema_check import openapi, without_304_content

pytestmark = pytest.mark.django_db

CASES = int(os.environ.get("FUZZ_CASES", "25"))
RANDOM = os.environ.get("FUZZ_RANDOM") == "1"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    missing_required_header,
    unsupported_method,
    ignored_auth,
]
#: What a request the schema calls valid may be answered besides a 2xx: refusals that depend on
#: state the schema cannot know (rights, ids naming nothing, conflicts, versions, rate limits).
#: A 3xx is standings' deprecated ``?format=csv`` sending the client on to ``standings.csv``.
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "412", "428", "429"]
#: The operations where a schema-valid request may also get a 400, and why: a secret or a token
#: that is wrong, ids in a body or query that name nothing, or a rule across fields or items that
#: JSON Schema (or OpenAPI's parameters) cannot say. docs/api.md lists the same.
REFUSED_BY_DESIGN = {
    # A made-up secret, link or token: the schema says its shape, not which ones are ours.
    "POST /api/auth/password-reset/confirm": "a made-up uid and token (invalid_link)",
    "POST /api/players/me/email/verify": "a made-up verification token (invalid_link)",
    "POST /api/players/me/delete": "a wrong password",
    "POST /api/players/me/password": "a wrong current_password",
    "POST /api/players": "a password the password policy refuses (too common, like the name)",
    "GET /api/notifications": "a made-up cursor",
    "GET /api/players/{player_id}/ratings": "a made-up cursor",
    "GET /api/players/{player_id}/history": "a made-up cursor; opponent or competition ids "
    "that name no player or competition",
    # Ids or positions in a body that name nothing of this match or competition.
    "PUT /api/competitions/{competition_id}/keep-apart": "players who are not entrants",
    "POST /api/matches/{match_id}/invitations": "a player_id that names no player",
    "POST /api/friends/requests": "a player_id that names nobody who can be a friend (no "
    "player, a bot, a guest, the caller)",
    "POST /api/players/{player_id}/block": "the caller, a bot or a guest",
    "POST /api/matches/{match_id}/seats/{position}/claim-code": "a seat past the match's seats",
    "POST /api/competitions/{competition_id}/entrants": "a guest's name for a competition "
    "played online (the competition's play mode decides which fields it takes); a division "
    "the competition does not have",
    # Rules across fields or items that the schema cannot say.
    "GET /api/leaderboards/{variant}": "player and page together (they exclude each other)",
    "POST /api/auth/password-reset": "neither email nor username (one of them is needed)",
    "POST /api/competitions": "stage_count outside 1-20 for a tournament (kind decides); "
    "divisions whose names repeat or whose min_rating bands do not descend",
    "PATCH /api/competitions/{competition_id}": "a field the competition's kind does not take "
    "(a league's pairing): the kind is the competition's, not the request's",
    "POST /api/matches": "two creator seats (one only); hints with play table or a league",
    "POST /api/push/devices": "an fcm device without its token (kind decides)",
    # A name the server's time zone database does not hold: the database is the machine's.
    "PATCH /api/players/me": "a time_zone that is no IANA zone the server knows",
    # An If-Match that is no ETag of ours (`*`, a list): the header is a free string.
    **{
        f"POST /api/competitions/{{competition_id}}/stages/{{number}}/{action}": "an If-Match "
        "that is not one version's ETag"
        for action in ("lock", "move", "re-pair", "reopen", "replace", "swap", "undo")
    },
    "POST /api/matches/{match_id}/moves": "an If-Match that is not one version's ETag",
    # A file as the body: the schema says bytes, not which bytes decode as a picture.
    "PUT /api/players/me/avatar": "bytes that are not a PNG, JPEG or WebP picture",
}
#: The operations where a schema-valid request may get a 422: a move the rules refuse (a tile
#: the player does not hold, an end that is not open) is well formed; the hand is state.
BREAKS_THE_RULES = {"POST /api/matches/{match_id}/moves": "a move the game's rules refuse"}


def _expected(label: str) -> list[str]:
    extra = ["400"] * (label in REFUSED_BY_DESIGN) + ["422"] * (label in BREAKS_THE_RULES)
    return [*ACCEPTED, *extra]


CONFIG = SchemathesisConfig.from_dict(
    {
        "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
        "operations": [
            {
                "include-name": label,
                "checks": {"positive_data_acceptance": {"expected-statuses": _expected(label)}},
            }
            for label in {**REFUSED_BY_DESIGN, **BREAKS_THE_RULES}
        ],
    }
)
#: Cases sent, by operation (summed up at the end of the module).
SENT: Counter[str] = Counter()
#: Answers by status class, over the whole run.
STATUSES: Counter[str] = Counter()


def _operations() -> list[str]:
    return [
        f"{method.upper()} {path}"
        for path, operations in openapi()["paths"].items()
        for method in operations
    ]


@pytest.fixture(scope="module", autouse=True)
def _report() -> Iterator[None]:
    yield
    if SENT:
        total = sum(SENT.values())
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(STATUSES.items()))
        print(  # noqa: T201 - the figures docs/reliability.md quotes (run with -s)
            f"\nfuzzed {len(SENT)} operations, {total} cases ({statuses})"
        )


@contextlib.contextmanager
def connection_kept() -> Iterator[None]:
    """Requests use the test's connection and transaction, as with Django's test client, which
    does the same: Django closes a connection at the start and end of a request when it is not
    in autocommit, and inside the test's transaction it is not."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def world(settings: Any) -> dict[str, Any]:
    """An organiser seated at a match in play and creator of an open one, a match of bots
    only, a league and a tournament: the ids the fuzzer mixes in."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    ada, grace, alan = (
        PlayerFactory(user__username=name, display_name=name.title())
        for name in ("ada", "grace", "alan")
    )
    Player.objects.filter(pk=ada.pk).update(is_organiser=True)
    ada.refresh_from_db()
    playing = match_create(
        creator=ada, variant="chickenfoot", seats=[SeatSpec("creator"), SeatSpec("open")]
    )
    seat_join(match_id=playing.pk, player=grace, position=1)
    match_start(match_id=playing.pk, player=ada)
    waiting = match_create(
        creator=ada,
        variant="mexican_train",
        seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("bot", 2)],
    )
    bots = match_create(
        creator=ada, variant="chickenfoot", seats=[SeatSpec("bot", 1), SeatSpec("bot", 3)]
    )
    match_start(match_id=bots.pk, player=ada)
    organiser = APIClient()
    organiser.credentials(HTTP_AUTHORIZATION=f"Token {token_for(ada)}")
    competitions = []
    for body in (
        {"kind": "tournament", "stage_count": 2, "name": "Cup", "variant": "chickenfoot",
         "table_size": 2},
        {"kind": "league", "name": "League", "variant": "mexican_train", "table_size": 2},
    ):  # fmt: skip
        created = organiser.post("/api/competitions", body, format="json")
        assert created.status_code == HTTPStatus.CREATED, created.content
        competitions.append(created.json()["id"])
    return {
        "token": token_for(ada),
        "match_id": [playing.pk, waiting.pk, bots.pk],
        "competition_id": competitions,
        "player_id": [ada.pk, grace.pk, alan.pk],
        "opponent_id": [grace.pk, ada.pk],
    }


@pytest.fixture(scope="module")
def schema() -> schemathesis.BaseSchema:
    """The schema ``/api/schema/`` serves (a 304 without a body: ``without_304_content``), and
    the app it describes, called in-process."""
    raw = json.loads(OpenApiJsonRenderer().render(without_304_content(openapi())))
    loaded = schemathesis.openapi.from_dict(raw, config=CONFIG)
    loaded.app = get_wsgi_application()
    return loaded


def auth_headers(world: dict[str, Any]) -> dict[str, str]:
    """The organiser's token. Passed to the checks too, so that ``ignored_auth`` knows it is
    the credential and sends the request again without it and with a wrong one."""
    return {"Authorization": f"Token {world['token']}"}


def _whole_floats(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, list):
        return any(_whole_floats(item) for item in value)
    if isinstance(value, dict):
        return any(_whole_floats(item) for item in value.values())
    return False


def _integers(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_integers(item) for item in value]
    if isinstance(value, dict):
        return {key: _integers(item) for key, item in value.items()}
    return value


def whole_numbers_as_integers(case: schemathesis.Case) -> schemathesis.Case:
    """A valid case sends ``2``, not ``2.0``: JSON Schema counts ``2.0`` an integer and cannot
    say otherwise, and the games API refuses it for an integer on purpose (a client sending a
    float where an integer is documented has a bug; tests/games/test_contract.py). Only a body
    that holds one is rewritten (rewriting a case makes schemathesis look at it again)."""
    if _whole_floats(case.body):
        case.body = _integers(case.body)
    return case


def _strategy(operation: Any, world: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Cases of both modes, with the world's ids as often as with generated ones."""
    headers = auth_headers(world)
    names = [p.name for p in operation.path_parameters]
    known = [name for name in names if name in world]
    strategies = []
    for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
        drawn = [operation.as_strategy(mode, headers=headers)]
        if known:
            for index in range(max(len(world[name]) for name in known)):
                ids = {name: world[name][index % len(world[name])] for name in known}
                drawn.append(operation.as_strategy(mode, headers=headers, path_parameters=ids))
        if mode is schemathesis.GenerationMode.POSITIVE:
            drawn = [strategy.map(whole_numbers_as_integers) for strategy in drawn]
        strategies.extend(drawn)
    return st.one_of(strategies)


@pytest.mark.parametrize("label", _operations())
def test_no_input_gets_a_5xx_and_every_answer_fits_the_schema(
    label: str, world: dict[str, Any], schema: schemathesis.BaseSchema
) -> None:
    operation = schema[label.split(" ", 1)[1]][label.split(" ", 1)[0]]
    strategy = _strategy(operation, world)

    @settings(
        max_examples=CASES * 2,
        deadline=None,
        derandomize=not RANDOM,
        database=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )
    @given(case=strategy)
    def run(case: schemathesis.Case) -> None:
        response = case.call()
        SENT[label] += 1
        STATUSES[f"{response.status_code // 100}xx"] += 1
        case.validate_response(response, checks=CHECKS, headers=auth_headers(world))

    with connection_kept():
        run()

    assert SENT[label] >= 1  # an operation without inputs has one case only
