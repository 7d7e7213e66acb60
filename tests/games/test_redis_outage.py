"""Redis out of reach: no endpoint answers a 5xx but the documented 503s (a socket ticket, and
health saying the broker is down); the request limits fail open; a move is still answered 201.

The outage test starts a redis-server of its own on a free loopback port, points the cache, the
channel layer and the Celery broker at it, uses it (so that the app holds live connections),
kills it by PID (SIGKILL) and then calls every operation of the schema and every other page of
the URL conf, with ids that exist. docs/reliability.md, "Redis down", has the matrix it
produces, and the test keeps that table equal to what it saw.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from chickenfoot.env import env_rate
from games import engine
from games.avatars.initials import initials_digest
from games.avatars.models import PlayerAvatar
from games.avatars.services import avatar_set
from games.engine.shuffle import new_match_seed
from games.invitations.services import invitation_create
from games.models import DeviceToken, Match, Player
from games.notifications.devices import device_register
from games.services import SeatSpec, match_create, match_start, seat_join
from games.social.services import friend_request_accept, friend_request_send
from games.tables.scorer_links import scorer_link_issue
from games.tables.seats import TableSeatSpec
from games.tables.services import table_match_create
from scoring.models import CompetitionMatch
from tests.conftest import broker_at
from tests.games.avatar_images import encoded, halves
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory, token_for
from tests.games.schema_check import openapi
from tests.processes import RedisServer, redis_cache, refusing_port, wait_for, workdir

pytestmark = pytest.mark.django_db

logger = logging.getLogger(__name__)


def test_a_ticket_answers_503_cache_unavailable_with_retry_after(
    settings: Any, started_match: Any, players: list[Player], caplog: pytest.LogCaptureFixture
) -> None:
    match: Match = started_match("chickenfoot", 2)
    with refusing_port() as port:
        settings.CACHES = redis_cache(f"redis://127.0.0.1:{port}/0")

        response = client_for(players[0]).post(f"/api/matches/{match.pk}/ticket")

    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE, response.content
    assert response["Content-Type"] == "application/problem+json"
    assert response["Retry-After"] == "5"
    body = response.json()
    assert (body["code"], body["title"], body["status"]) == (
        "cache_unavailable",
        "Cache unavailable",
        503,
    )
    assert str(port) not in response.content.decode()  # where Redis is: in the log only
    logged = "The shared cache cannot be reached: ConnectionError: Error 111 connecting to"
    assert f"{logged} 127.0.0.1:{port}" in caplog.text


def test_the_ticket_documents_its_503_and_retry_after() -> None:
    operation = openapi()["paths"]["/api/matches/{match_id}/ticket"]["post"]
    unavailable = operation["responses"]["503"]

    examples = unavailable["content"]["application/problem+json"]["examples"]
    codes = {example["value"]["code"] for example in examples.values()}
    assert codes == {"cache_unavailable", "database_unavailable"}
    assert "Retry-After" in unavailable["headers"]


# --- a Redis of the test's own, killed by PID, and every endpoint during the outage ------------

REDIS_SERVER = shutil.which("redis-server")
RELIABILITY_MD = Path(__file__).resolve().parents[2] / "docs" / "reliability.md"
#: Every scope the settings limit (on here, far above what the test sends).
SCOPES = ("register", "login", "match_create", "match_create_address", "move", "move_address")
#: Run last, in this order: each takes away something the others use, or needs what they made.
LAST = [
    # the caller's quick play entry once the join (in the schema's order) has made it; then left
    ("GET", "/api/queue"),
    ("DELETE", "/api/queue"),
    # after round 1 of the table match is entered (by ada: her own entry she cannot confirm)
    ("POST", "/api/matches/{match_id}/rounds/{number}/confirm"),
    ("POST", "/api/matches/{match_id}/rounds/{number}/dispute"),
    ("POST", "/api/matches/{match_id}/rounds/{number}/resolve"),
    ("POST", "/api/competitions/{competition_id}/unpublish"),  # after the wall is read
    ("POST", "/api/matches/{match_id}/resign"),
    ("POST", "/api/matches/{match_id}/abandon"),
    ("DELETE", "/api/auth/tokens/{token_id}"),
    ("POST", "/api/auth/logout"),
    ("POST", "/api/auth/logout-all"),
    # the fourth player's account: its password changed, then the account deleted
    ("POST", "/api/players/me/password"),
    ("POST", "/api/players/me/delete"),
]
#: The 5xx a Redis outage is documented to get, with their code: a ticket (503
#: ``cache_unavailable``), health saying the broker is down and readiness saying Redis is (503,
#: their documents).
DOCUMENTED_5XX = {
    "POST /api/matches/{match_id}/ticket": "cache_unavailable",
    "POST /api/notifications/ticket": "cache_unavailable",
    "GET /api/health": "broker error",
    "GET /api/health/ready": "redis error",
}
#: Answered as usual, Redis or not: the docs' promises.
PROMISED = {
    "POST /api/players": HTTPStatus.CREATED,
    "POST /api/auth/token": HTTPStatus.OK,
    "POST /api/matches": HTTPStatus.CREATED,
    "POST /api/matches/{match_id}/moves": HTTPStatus.CREATED,
    "POST /api/matches/{match_id}/start": HTTPStatus.OK,
}
PASSWORD = "a-long-enough-passphrase"  # the player factory's
#: Ada's avatar, uploaded before Redis goes.
AVATAR_PICTURE = encoded(halves())
#: Bodies that pass validation, so that these requests do their work.
BODIES: dict[str, Any] = {
    "POST /api/players": {"username": "newcomer", "password": "correct horse battery"},
    "POST /api/auth/token": {"username": "ada", "password": PASSWORD},
    "POST /api/matches": {
        "variant": "chickenfoot",
        "seats": [{"kind": "creator"}, {"kind": "bot", "level": 1}],
    },
    "POST /api/queue": {"variant": "chickenfoot", "seats": 4, "preset": "standard"},
    "PATCH /api/matches/{match_id}/table-settings": {"confirmation": "any_other_seat"},
    "POST /api/matches/{match_id}/rounds/{number}/dispute": {"reason": "I had 12."},
    "POST /api/matches/{match_id}/rounds/{number}/resolve": {"note": "12 it is."},
    "POST /api/competitions": {
        "kind": "league",
        "name": "Spring",
        "variant": "mexican_train",
        "table_size": 2,
    },
    "POST /api/matches/{match_id}/reopen": {"reason": "The sheet was misread"},
    "PUT /api/players/me/email": {"email": "ada@example.com"},
    "POST /api/players/me/email/verify": {"token": "not-a-token-of-ours"},
    "POST /api/auth/password-reset": {"email": "ada@example.com"},
    "POST /api/auth/password-reset/confirm": {
        "uid": "MQ",
        "token": "made-up",
        "new_password": "a brand new passphrase",
    },
    "POST /api/players/me/password": {
        "current_password": PASSWORD,
        "new_password": "a brand new passphrase",
    },
    "POST /api/players/me/delete": {"password": "a brand new passphrase"},
    "POST /api/matches/{match_id}/invitations": {"link": True},
    "POST /api/notifications/read": {"up_to": 1},
    "PUT /api/notifications/preferences": {"preferences": [{"kind": "match_over", "push": False}]},
    "POST /api/push/devices": {"kind": "apns", "token": "a-phone-during-the-outage"},
    "POST /api/matches/{match_id}/chat": {"phrase": "good_game"},
}


@dataclass
class World:
    """Players, matches and a competition, so that each operation goes as far as it can."""

    players: list[Player]  # ada (an organiser), grace, alan
    clients: list[APIClient]
    phone: APIClient  # ada on another token: logs out
    leaver: APIClient  # edsger: changes his password, then deletes his account
    playing: Match  # ada and grace, in play, with a turn clock (a move schedules its tasks)
    bots: Match  # ada's against a bot, not started: starting it queues the bot's turn
    open: Match  # ada's, a seat open: alan joins it
    table: Match  # ada's, played at a table with grace and a guest: round 1 is entered
    competition: int
    spare_token: int  # one of ada's tokens, for the revoke
    scorer_link: int  # a scorer link of the table match, for the revoke
    scorer: APIClient  # the phone holding another link's code: what it opens
    inviting: Match  # ada's, four open seats: alan, grace and edsger invited, one free
    finished: Match  # ada's and grace's, finished: ada asks for its rematch
    invitations: dict[str, int]  # the invitation each invitation operation answers
    invite_code: str  # a link's code to a seat of another of ada's matches: alan takes it
    push_device: int  # one of ada's push devices, for the removal
    friend_requests: dict[str, int]  # requests to ada: alan's she accepts, edsger's she declines
    stranger: Player  # whom ada asks to be friends
    pest: Player  # whom ada blocks, then unblocks

    def caller(self, template: str, method: str = "GET") -> APIClient:
        if template in ("/api/players/me/password", "/api/players/me/delete"):
            return self.leaver
        if template.endswith(("/moves", "/legal-moves")):
            self.playing.refresh_from_db()
            return self.clients[int(self.playing.state["turn"])]
        if template.endswith("/join"):
            return self.clients[2]
        if template == "/api/auth/logout":
            return self.phone
        if template == "/api/scorer":
            return self.scorer
        if template in ("/api/invitations/{invitation_id}/accept", "/api/invitations/accept"):
            return self.clients[2]
        if template == "/api/invitations/{invitation_id}/decline":
            return self.clients[1]
        return self.clients[0]

    def path(self, template: str) -> str:
        match = self.playing
        on_table = (
            "/rounds/{number}/",
            "/seats/{position}/",
            "/reopen",
            "/score-log",
            "/score-sheet",
            "/scorer-",
            "/table-settings",
        )
        if any(part in template for part in on_table):
            match = self.table
        elif template.endswith(("/start", "/abandon")):
            match = self.bots
        elif template.endswith("/join"):
            match = self.open
        elif template.endswith("/invitations"):
            match = self.inviting
        elif template.endswith("/rematch"):
            match = self.finished
        player = self.players[0]
        if template.startswith("/api/friends/"):
            player = self.players[1]  # ada's friend: the friendship ends
        elif template.endswith("/block"):
            player = self.pest
        ids = {
            "match_id": match.pk,
            "competition_id": self.competition,
            "player_id": player.pk,
            "opponent_id": self.players[1].pk,
            "request_id": self.friend_requests.get(template.rsplit("}", 1)[-1], 0),
            "token_id": self.spare_token,
            "link_id": self.scorer_link,
            "invitation_id": self.invitations.get(template.rsplit("}", 1)[-1], 0),
            "device_id": self.push_device,
            "digest": self.avatar_digest(template),
            **PLACEHOLDERS,
        }
        return filled(template, ids) + required_query(template)

    def avatar_digest(self, template: str) -> str:
        """An uploaded avatar's address (ada's), or a default one's (her initials')."""
        ada = self.players[0]
        if template.endswith(".webp"):
            return PlayerAvatar.objects.get(player=ada).large
        return initials_digest(ada.display_name, ada.pk)

    def body(self, operation: str) -> Any:
        if operation == "PUT /api/players/me/avatar":
            return AVATAR_PICTURE  # the one ada has: her files stay as they are
        if operation == "POST /api/matches/{match_id}/moves":
            client = self.caller(operation.split(" ", 1)[1])
            legal = client.get(f"/api/matches/{self.playing.pk}/legal-moves").json()
            return {**legal["moves"][0], "version": legal["version"]}
        if operation == "POST /api/matches/{match_id}/rounds/{number}/scores":
            self.table.refresh_from_db()
            return {
                "version": self.table.version,
                "scores": [
                    {"seat": 0, "points": 0, "went_out": True},
                    {"seat": 1, "points": 12},
                    {"seat": 2, "points": 30},
                ],
            }
        if operation == "PUT /api/matches/{match_id}/rounds/{number}/scores":
            self.table.refresh_from_db()
            return {
                "version": self.table.version,
                "reason": "Seat 2 counted again",
                "scores": [
                    {"seat": 0, "points": 0, "went_out": True},
                    {"seat": 1, "points": 12},
                    {"seat": 2, "points": 31},
                ],
            }
        if operation == "POST /api/invitations/accept":
            return {"code": self.invite_code}
        if operation == "POST /api/friends/requests":
            return {"player_id": self.stranger.pk}
        method = operation.split(" ")[0]
        return BODIES.get(operation, {} if method in ("POST", "PUT", "PATCH") else None)


def make_world(players: list[Player]) -> World:
    ada, grace, alan = players[:3]
    Player.objects.filter(pk=ada.pk).update(is_organiser=True)
    ada.refresh_from_db()
    humans = [SeatSpec("creator"), SeatSpec("open")]
    playing = match_create(
        creator=ada, variant="chickenfoot", seats=humans, options={"turn_seconds": 600}
    )
    seat_join(match_id=playing.pk, player=grace, position=1)
    match_start(match_id=playing.pk, player=ada)
    playing.refresh_from_db()
    bots = match_create(creator=ada, variant="chickenfoot", seats=[humans[0], SeatSpec("bot", 1)])
    bot_moves_first(bots)
    waiting = match_create(creator=ada, variant="mexican_train", seats=humans)
    table = table_match_create(
        creator=ada,
        variant="mexican_train",
        seats=[
            TableSeatSpec("creator"),
            TableSeatSpec("player", player_id=grace.pk),
            TableSeatSpec("guest", name="Cousin Joe"),
        ],
        options={"rounds": 2},
    )
    clients = [client_for(player) for player in (ada, grace, alan)]
    created = clients[0].post(
        "/api/competitions",
        {"kind": "tournament", "stage_count": 2, "name": "Cup", "variant": "chickenfoot",
         "table_size": 2},
        format="json",
    )  # fmt: skip
    assert created.status_code == HTTPStatus.CREATED, created.content
    # the table counts for the tournament, whose organiser, ada, may reopen it
    CompetitionMatch.objects.create(competition_id=created.json()["id"], match=table)
    token_for(ada, "spare")
    spare = DeviceToken.objects.filter(user=ada.user, device="spare").values_list("pk", flat=True)
    phone = APIClient()
    phone.credentials(HTTP_AUTHORIZATION=f"Token {token_for(ada, 'phone')}")
    inviting = match_create(creator=ada, variant="chickenfoot", seats=[humans[0], *[humans[1]] * 4])
    held = {
        "/accept": invitation_create(match_id=inviting.pk, inviter=ada, invitee=alan),
        "/decline": invitation_create(match_id=inviting.pk, inviter=ada, invitee=grace),
        "": invitation_create(match_id=inviting.pk, inviter=ada, invitee=players[3]),
    }
    linked = match_create(creator=ada, variant="chickenfoot", seats=humans)
    invite_code = invitation_create(match_id=linked.pk, inviter=ada, link=True).code
    finished = match_create(creator=ada, variant="chickenfoot", seats=humans)
    seat_join(match_id=finished.pk, player=grace, position=1)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    asked = {
        "/accept": friend_request_send(sender=alan, player_id=ada.pk).request.pk,
        "/decline": friend_request_send(sender=players[3], player_id=ada.pk).request.pk,
    }
    friend_request_accept(
        request_id=friend_request_send(sender=ada, player_id=grace.pk).request.pk, player=grace
    )
    scorer = APIClient()
    code = scorer_link_issue(match_id=table.pk, player=ada).code
    scorer.credentials(HTTP_AUTHORIZATION=f"Scorer {code}")
    return World(
        players=[ada, grace, alan],
        clients=clients,
        phone=phone,
        leaver=client_for(players[3]),
        playing=playing,
        bots=bots,
        open=waiting,
        table=table,
        competition=created.json()["id"],
        spare_token=spare[0],
        scorer_link=scorer_link_issue(match_id=table.pk, player=ada).link.pk,
        scorer=scorer,
        inviting=inviting,
        finished=finished,
        invitations={end: issued.invitation.pk for end, issued in held.items()},
        invite_code=str(invite_code),
        push_device=device_register(player=ada, kind="fcm", token="ada-phone").pk,
        friend_requests=asked,
        stranger=PlayerFactory(user__username="stranger", display_name="Stranger"),
        pest=PlayerFactory(user__username="pest", display_name="Pest"),
    )


def bot_moves_first(match: Match) -> None:
    """Give ``match`` (a human at seat 0, a bot at seat 1) a seed whose deal has the bot open
    (CF-START), so that starting it queues the bot's turn, whatever the deal would have been."""
    seed = match.seed
    while engine.to_json(engine.new_match(match.variant, 2, match.options, seed))["turn"] != 1:
        seed = new_match_seed()
    Match.objects.filter(pk=match.pk).update(seed=seed)


#: A value for each path parameter, and for each required query parameter, of no world.
PLACEHOLDERS = {
    "variant": "chickenfoot",
    "number": 1,
    "position": 2,  # seat 2: the guest
    "code": "ABCDEFGHJK",  # a scorer page's code: the page is the same for any
    "language": "lo",  # a How to play page's language
    "search": "gra",  # a player's search: grace
}


def filled(template: str, ids: dict[str, Any]) -> str:
    """``/api/matches/{match_id}`` with the ids put in."""
    return re.sub(r"\{(\w+)\}", lambda name: str(ids[name[1]]), template)


def required_query(template: str) -> str:
    """The query string of the parameters the schema requires of the path's operations."""
    operations = openapi()["paths"].get(template, {}).values()
    names = {
        parameter["name"]
        for operation in operations
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query" and parameter.get("required")
    }
    return "?" + "&".join(f"{name}={PLACEHOLDERS[name]}" for name in sorted(names)) if names else ""


def operations() -> list[str]:
    """Every operation of the schema (``"POST /api/matches"``), then every other page of the URL
    conf, then the operations of ``LAST``."""
    last = [f"{method} {template}" for method, template in LAST]
    every = [
        f"{method.upper()} {template}"
        for template, methods in openapi()["paths"].items()
        for method in methods
        if method != "parameters"
    ]
    assert set(last) <= set(every)
    return [op for op in every if op not in last] + pages() + last


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern).removeprefix("^" if prefix else "")
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":  # Django's own pages: the front and its log-in
                yield from (route, route + "login/")
            else:
                yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route


#: The other ids of the schema's paths, for resolving them.
ONE_IDS = ("token_id", "link_id", "invitation_id", "device_id", "digest", "request_id")


def pages() -> list[str]:
    """The URL conf's routes that the schema does not describe (``"GET /matches/{match_id}/"``):
    the web pages, the schema's own pages, the admin."""
    ids = dict.fromkeys(("match_id", "competition_id", "player_id", "opponent_id"), 1)
    described = {
        resolve(filled(template, {**ids, **dict.fromkeys(ONE_IDS, 1), **PLACEHOLDERS})).route
        for template in openapi()["paths"]
    }
    return [
        "GET /" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
        for route in _routes(get_resolver().url_patterns)
        if route not in described
    ]


@contextmanager
def everything_at(settings: Any, url: str) -> Iterator[None]:
    """The cache, the channel layer and the Celery broker at the Redis at ``url``, the request
    limits on (far above what the test sends), inside the block."""
    settings.CACHES = redis_cache(url)
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "chickenfoot.channel_layer.BatchedRedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": url, "socket_timeout": 15, "socket_connect_timeout": 2}],
                "prefix": "test-redis-outage",
            },
        }
    }
    settings.CELERY_BROKER_URL = url
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.REDIS_URL = url  # what readiness pings
    settings.THROTTLE_RATES = {scope: env_rate("UNUSED", "1000/min") for scope in SCOPES}
    with broker_at(url):
        yield


@dataclass(frozen=True)
class Answer:
    status: int
    code: str | None
    seconds: float


def call(world: World, operation: str) -> Answer:
    method, template = operation.split(" ", 1)
    client = world.caller(template, method)
    body = world.body(operation)
    started = time.monotonic()
    if body is None:
        response = client.generic(method, world.path(template))
    elif isinstance(body, bytes):
        response = getattr(client, method.lower())(
            world.path(template), body, content_type="image/png"
        )
    else:
        response = getattr(client, method.lower())(world.path(template), body, format="json")
    seconds = time.monotonic() - started
    document = response.json() if "json" in response.get("Content-Type", "") else None
    code = document.get("code") if isinstance(document, dict) else None
    if template == "/api/health" and isinstance(document, dict):
        code = f"broker {document.get('broker')}"
    if template == "/api/health/ready" and isinstance(document, dict):
        code = f"redis {document.get('redis')}"
    return Answer(response.status_code, code, seconds)


def documented_matrix() -> dict[str, int]:
    """docs/reliability.md's "Redis down" table: operation -> status while Redis is down."""
    text = RELIABILITY_MD.read_text()
    section = text.split("\n## Redis down\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([A-Z]+ /[^`]*)` \| (\d{3})\b", section, flags=re.MULTILINE)
    return {operation: int(status) for operation, status in rows}


@pytest.mark.skipif(
    REDIS_SERVER is None and os.environ.get("CELERY_WORKER_EXPECTED") != "1",
    reason="redis-server is not installed (.ci/run installs it)",
)
@pytest.mark.django_db(transaction=True)  # so that work after commit (tasks, events) runs
def test_with_redis_killed_every_endpoint_answers_and_none_with_a_5xx_but_the_documented(
    settings: Any, players: list[Player], caplog: pytest.LogCaptureFixture
) -> None:
    where = workdir()
    server = RedisServer(where)
    server.start()
    settings.STORAGES = {
        **settings.STORAGES,
        "avatars": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": where / "avatars", "allow_overwrite": True},
        },
    }
    try:
        with everything_at(settings, server.url):
            # given: Redis in use (the app's pools hold live connections)
            world = make_world(players)
            avatar_set(player=players[0], body=AVATAR_PICTURE)
            ticket = call(world, "POST /api/matches/{match_id}/ticket")
            assert ticket.status == HTTPStatus.CREATED
            assert call(world, "GET /api/health").status == HTTPStatus.OK

            # when: Redis is SIGKILLed, and every endpoint is called
            server.kill()
            caplog.clear()
            answers = {op: call(world, op) for op in operations()}
    finally:
        server.kill()
        shutil.rmtree(where, ignore_errors=True)

    matrix = {op: answer.status for op, answer in answers.items()}
    rows = [
        f"| `{op}` | {a.status} {a.code or ''} | {a.seconds:.3f} s" for op, a in answers.items()
    ]
    logger.info(
        "Redis down: %d operations, slowest %.2f s (the schema's generation included)\n%s",
        len(answers),
        max(a.seconds for a in answers.values()),
        "\n".join(rows),
    )
    # then: no 5xx but the documented ones
    errors = {op: a for op, a in answers.items() if a.status >= HTTPStatus.INTERNAL_SERVER_ERROR}
    assert {op: a.code for op, a in errors.items()} == DOCUMENTED_5XX, errors
    assert {op: matrix[op] for op in PROMISED} == PROMISED
    # and: the limits said they were not applied, and the lost sends were logged
    said = caplog.text
    for scope in SCOPES:
        assert f"Throttle {scope} not applied" in said, scope
    assert "Could not run or enqueue games.tasks.bot_play_turn" in said
    # (the match's 600 s clock sends no countdown: the sweep fires it when due, so no send is lost)
    wait_for(lambda: "live: could not publish" in caplog.text, 10, "a failed publish logged")
    # and: docs/reliability.md's matrix is this one
    assert documented_matrix() == matrix
