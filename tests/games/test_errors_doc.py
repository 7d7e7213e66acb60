"""docs/errors.md's table is what the API sends: each documented code is produced by a request,
with the documented status and title.

Most producers are real requests to the real API. A few problems have no request that gets them
on demand in a test (Django's own 403, a server error): those go to the test-only views of
``tests.foundation.urls``, which raise what the product code raises.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from django.test import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player
from games.quick_play.pairing import queue_pair
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.foundation.errors_doc import PROXY_CODES, Documented, documented
from tests.games.avatar_images import animated, encoded, noise, png_header_only
from tests.games.conftest import FIXED_SEED, client_for
from tests.games.helpers import submit
from tests.hashing_slots import slots_held
from tests.processes import redis_cache, refusing_port

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.foundation.urls")]


class World:
    """Players and matches in every state the producers need."""

    def __init__(self, players: list[Player]) -> None:
        self.players = players
        self.clients = [client_for(p) for p in players]
        self.anonymous = APIClient()
        self.open = match_create(
            creator=players[0],
            variant="chickenfoot",
            seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("open")],
        )
        self.full_open = match_create(
            creator=players[0],
            variant="chickenfoot",
            seats=[SeatSpec("creator"), SeatSpec("bot", 1)],
        )
        self.playing = match_create(
            creator=players[0],
            variant="chickenfoot",
            seats=[SeatSpec("creator"), SeatSpec("open"), SeatSpec("open")],
        )
        Match.objects.filter(pk=self.playing.pk).update(seed=FIXED_SEED)
        seat_join(match_id=self.playing.pk, player=players[1], position=1)
        seat_join(match_id=self.playing.pk, player=players[2], position=2)
        match_start(match_id=self.playing.pk, player=players[0])
        self.playing.refresh_from_db()

    @property
    def turn(self) -> int:
        self.playing.refresh_from_db()
        return int(self.playing.state["turn"])

    def mover(self) -> APIClient:
        return self.clients[self.turn]

    def waiter(self) -> APIClient:
        return self.clients[(self.turn + 1) % 3]

    def play(self, **change: Any) -> dict[str, Any]:
        legal = self.mover().get(f"/api/matches/{self.playing.pk}/legal-moves").json()
        move = next(m for m in legal["moves"] if m["kind"] == "play")
        return {**move, "version": legal["version"], **change}

    def move(self, client: APIClient, body: dict[str, Any], **headers: str) -> Any:
        return submit(client, self.playing.pk, body, **headers)


def _rule_violation(w: World) -> Any:
    hand = {tuple(sorted(t)) for t in w.playing.state["hands"][w.turn]}
    missing = next([a, b] for a in range(10) for b in range(a, 10) if (a, b) not in hand)
    return w.move(w.mover(), w.play(tile=missing))


def _idempotency_key_reused(w: World) -> Any:
    legal = w.mover().get(f"/api/matches/{w.playing.pk}/legal-moves").json()
    first, second = legal["moves"][:2]
    version = legal["version"]
    w.move(w.mover(), {**first, "version": version}, HTTP_IDEMPOTENCY_KEY="k")
    mover_before = w.clients[(w.turn - 1) % 3]  # the seat that just moved
    return w.move(mover_before, {**second, "version": version}, HTTP_IDEMPOTENCY_KEY="k")


def _already_left(w: World) -> Any:
    w.clients[2].post(f"/api/matches/{w.playing.pk}/resign")
    return w.clients[2].post(f"/api/matches/{w.playing.pk}/resign")


def _chat_closed(w: World) -> Any:
    from datetime import timedelta

    from django.utils import timezone

    ended = timezone.now() - timedelta(hours=1)
    Match.objects.filter(pk=w.playing.pk).update(status=Match.Status.ABANDONED, finished_at=ended)
    return w.clients[1].post(
        f"/api/matches/{w.playing.pk}/chat", {"phrase": "good_game"}, format="json"
    )


def _seat_left(w: World) -> Any:
    mover = w.mover()
    move = w.play()
    mover.post(f"/api/matches/{w.playing.pk}/resign")
    return w.move(mover, move)


def _results_incomplete(w: World) -> Any:
    from scoring.models import RoundResult
    from tests.games.factories import PlayerFactory
    from tests.scoring.conftest import make_finished_match

    match = make_finished_match(seated=w.players[:2], scores=[[0, 5], [4, 0]])
    RoundResult.objects.filter(match_id=match.pk, round_number=2).delete()
    organiser = client_for(PlayerFactory(is_organiser=True))
    return organiser.post(f"/api/matches/{match.pk}/finalise")


def _bad_host(w: World) -> Any:
    return w.anonymous.get("/api/health", HTTP_HOST="evil.example")


TOURNAMENT = {"kind": "tournament", "name": "Cup", "variant": "chickenfoot", "table_size": 3}


def _organiser(w: World) -> APIClient:
    Player.objects.filter(pk=w.players[3].pk).update(is_organiser=True)
    return w.clients[3]


def _competition(w: World, path: str = "", *, kind: str = "tournament", close: bool = False) -> str:
    """A new competition of the fourth player's (an organiser), its URL plus ``path``."""
    organiser = _organiser(w)
    body = {**TOURNAMENT, "stage_count": 2} if kind == "tournament" else {
        **TOURNAMENT, "kind": "league", "variant": "mexican_train"}  # fmt: skip
    url = (
        f"/api/competitions/{organiser.post('/api/competitions', body, format='json').json()['id']}"
    )
    if close:
        organiser.post(f"{url}/close")
    return url + path


def _league_refused(w: World) -> Any:
    url = _competition(w, kind="league")
    w.clients[0].post(f"{url}/register")
    w.clients[1].post(f"{url}/register")
    _organiser(w).post(f"{url}/close")
    _organiser(w).post(f"{url}/start")
    league = int(url.rsplit("/", 1)[1])
    seats = [{"kind": "creator"}, {"kind": "open"}]
    return w.clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "league": league, "seats": seats}, format="json"
    )


def _not_league_player(w: World) -> Any:
    url = _competition(w, kind="league")
    w.clients[0].post(f"{url}/register")
    w.clients[1].post(f"{url}/register")
    _organiser(w).post(f"{url}/close")
    _organiser(w).post(f"{url}/start")
    league = int(url.rsplit("/", 1)[1])
    seats = [{"kind": "creator"}, {"kind": "open"}]
    return w.clients[2].post(
        "/api/matches",
        {"variant": "mexican_train", "league": league, "seats": seats},
        format="json",
    )


def _throttled(w: World) -> Any:
    """A second registration from one address, with a limit of one an hour (on a cache of its
    own: the suite runs without limits)."""
    cache = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "errors-doc"}
    with override_settings(THROTTLE_RATES={"register": "1/hour"}, CACHES={"default": cache}):
        for name in ("newcomer", "latecomer"):
            answer = w.anonymous.post(
                "/api/players", {"username": name, "password": "correct horse battery"}
            )
        return answer


def _locked_out(w: World) -> Any:
    """Failed log-ins up to the limit (two here): the one that reaches it is refused."""
    with override_settings(AXES_FAILURE_LIMIT=2):
        for _ in range(2):
            answer = w.anonymous.post("/api/auth/token", {"username": "ada", "password": "wrong"})
        return answer


def _cache_unavailable(w: World) -> Any:
    """A socket ticket while the shared cache (Redis, which holds tickets) refuses connections."""
    with refusing_port() as port:
        refusing = redis_cache(f"redis://127.0.0.1:{port}/0")
        with override_settings(CACHES=refusing):
            return w.clients[0].post(f"/api/matches/{w.playing.pk}/ticket")


def _bot_match_limit(w: World) -> Any:
    """A match of bots only, for a player allowed none at once."""
    with override_settings(BOT_ONLY_MATCHES_PER_PLAYER=0):
        return w.clients[0].post(
            "/api/matches",
            {"variant": "chickenfoot", "seats": [{"kind": "bot", "level": 1}] * 2},
            format="json",
        )


def _busy(w: World) -> Any:
    """A log-in while this process already runs as many password checks as it allows (one)."""
    with override_settings(PASSWORD_HASHES_AT_ONCE=1), slots_held(1):
        return w.anonymous.post("/api/auth/token", {"username": "ada", "password": "wrong"})


def _twice(w: World, path: str) -> Any:
    url = _competition(w)
    w.clients[0].post(f"{url}/{path}")
    return w.clients[0].post(f"{url}/{path}")


def _table(w: World) -> int:
    """A table match of players 0 and 1 and a guest (seat 2), ready to score."""
    seats = [{"kind": "creator"}, {"kind": "player", "player_id": w.players[1].pk}]
    seats.append({"kind": "guest", "name": "Bea"})
    body = {"variant": "chickenfoot", "play": "table", "seats": seats}
    return int(w.clients[0].post("/api/matches", body, format="json").json()["id"])


def _scores(w: World, client: Any, match_id: int, points: list[int]) -> Any:
    scores = [{"seat": seat, "points": p} for seat, p in enumerate(points)]
    url = f"/api/matches/{match_id}/rounds/1/scores"
    return client.post(url, {"version": 0, "scores": scores}, format="json")


def _claim(w: World, client: Any, code: str) -> Any:
    return client.post("/api/players/me/claims", {"code": code}, format="json")


def _claim_code(w: World, match_id: int) -> str:
    return str(w.clients[0].post(f"/api/matches/{match_id}/seats/2/claim-code").json()["code"])


def _locked(w: World) -> Any:
    """A correction of a table match whose tournament has finished."""
    from scoring.models import Competition, CompetitionMatch

    match_id = _table(w)
    _scores(w, w.clients[0], match_id, [0, 1, 2])
    competition = Competition.objects.create(
        kind="tournament",
        name="Done",
        variant="chickenfoot",
        table_size=3,
        points_scheme={},
        stage_count=1,
        seed="s",
        organiser=w.players[0],
        status="finished",
    )
    CompetitionMatch.objects.create(competition=competition, match_id=match_id)
    scores = [{"seat": seat, "points": p} for seat, p in enumerate([0, 2, 2])]
    url = f"/api/matches/{match_id}/rounds/1/scores"
    body = {"version": 1, "reason": "Miscounted", "scores": scores}
    return w.clients[0].put(url, body, format="json")


def _stage_scoring_started(w: World) -> Any:
    """A swap at a table tournament's stage 1 after a table's round was entered."""
    organiser = _organiser(w)
    body = {**TOURNAMENT, "play": "table", "table_size": 2, "stage_count": 2}
    url = (
        f"/api/competitions/{organiser.post('/api/competitions', body, format='json').json()['id']}"
    )
    ids = [
        organiser.post(f"{url}/entrants", {"name": f"Guest {n}", "check_in": True}).json()[
            "entrants"
        ][0]["player_id"]
        for n in range(4)
    ]
    organiser.post(f"{url}/close")
    table = organiser.post(f"{url}/stages", {"number": 1}, format="json").json()["tables"][0]
    _scores(w, organiser, table["match_id"], [0, 5])
    return organiser.post(
        f"{url}/stages/1/swap", {"players": ids[:2]}, format="json", HTTP_IF_MATCH='"0"'
    )


def _divided(w: World) -> tuple[APIClient, str, list[int]]:
    """A table tournament of two divisions, A and B, two guests in each, stage 1 seated."""
    organiser = _organiser(w)
    body = {**TOURNAMENT, "play": "table", "table_size": 2, "stage_count": 2,
            "divisions": [{"name": "A"}, {"name": "B"}]}  # fmt: skip
    url = (
        f"/api/competitions/{organiser.post('/api/competitions', body, format='json').json()['id']}"
    )
    ids = [
        organiser.post(f"{url}/entrants", {"name": f"Guest {n}", "division": "AB"[n % 2],
                                           "check_in": True}, format="json"
                       ).json()["entrants"][0]["player_id"]
        for n in range(4)
    ]  # fmt: skip
    organiser.post(f"{url}/close")
    organiser.post(f"{url}/stages", {"number": 1}, format="json")
    return organiser, url, ids


def _division_mismatch(w: World) -> Any:
    """A swap of two entrants of two divisions."""
    organiser, url, ids = _divided(w)
    return organiser.post(
        f"{url}/stages/1/swap", {"players": ids[:2]}, format="json", HTTP_IF_MATCH='"0"'
    )


def _division_fixed(w: World) -> Any:
    """An entrant seated at stage 1 in division A, moved to B."""
    organiser, url, ids = _divided(w)
    return organiser.patch(f"{url}/entrants/{ids[0]}", {"division": "B"}, format="json")


def _divisions_seated(w: World) -> Any:
    """The divisions of a tournament whose stage 1 is seated, removed."""
    organiser, url, _ids = _divided(w)
    return organiser.patch(url, {"divisions": None}, format="json")


def _scored(w: World) -> int:
    """A table match whose round 1 its creator (player 0) has entered."""
    match_id = _table(w)
    _scores(w, w.clients[0], match_id, [0, 1, 2])
    return match_id


def _review(w: World, client: Any, match_id: int, kind: str, **body: str) -> Any:
    return client.post(f"/api/matches/{match_id}/rounds/1/{kind}", body, format="json")


def _email_taken(w: World) -> Any:
    Player.objects.filter(pk=w.players[1].pk).update(
        email="grace@example.com", email_verified_at=timezone.now()
    )
    return w.clients[0].put("/api/players/me/email", {"email": "Grace@example.com"}, format="json")


def _still_organising(w: World) -> Any:
    _competition(w)  # the fourth player's, registering
    return w.clients[3].post(
        "/api/players/me/delete", {"password": "a-long-enough-passphrase"}, format="json"
    )


def _invitation(w: World) -> int:
    """Ada's invitation of Grace to seat 1 of the open match."""
    body = {"seat": 1, "player_id": w.players[1].pk}
    answer = w.clients[0].post(f"/api/matches/{w.open.pk}/invitations", body, format="json")
    assert answer.status_code == HTTPStatus.CREATED, answer.content
    return int(answer.json()["id"])


def _invitation_expired(w: World) -> Any:
    from games.invitations.models import Invitation

    invitation = _invitation(w)
    Invitation.objects.filter(pk=invitation).update(expires_at=timezone.now())
    return w.clients[1].post(f"/api/invitations/{invitation}/accept")


def _invitation_closed(w: World) -> Any:
    invitation = _invitation(w)
    w.clients[1].post(f"/api/invitations/{invitation}/decline")
    return w.clients[1].post(f"/api/invitations/{invitation}/decline")


def _seat_held(w: World) -> Any:
    _invitation(w)
    return w.clients[3].post(f"/api/matches/{w.open.pk}/join", {"position": 1}, format="json")


QUEUE = {"variant": "mexican_train", "seats": 2, "preset": "quick"}


def _already_queued(w: World) -> Any:
    w.clients[0].post("/api/queue", QUEUE, format="json")
    return w.clients[0].post("/api/queue", {**QUEUE, "seats": 3}, format="json")


def _queue_matched(w: World) -> Any:
    for client in w.clients[:2]:
        client.post("/api/queue", QUEUE, format="json")
    # the test's transaction never commits, so the joins' own pairing does not run: pair here
    queue_pair(variant="mexican_train", seat_count=2, preset="quick")
    return w.clients[0].delete("/api/queue")


def _hint_limit(w: World) -> Any:
    body = {
        "variant": "chickenfoot",
        "hints": True,
        "seats": [{"kind": "creator"}, {"kind": "open"}],
    }
    match_id = w.clients[0].post("/api/matches", body, format="json").json()["id"]
    w.clients[1].post(f"/api/matches/{match_id}/join", {}, format="json")
    w.clients[0].post(f"/api/matches/{match_id}/start")
    turn = Match.objects.get(pk=match_id).state["turn"]
    w.clients[turn].get(f"/api/matches/{match_id}/hint")
    return w.clients[turn].get(f"/api/matches/{match_id}/hint")


def _confirmed_twice(w: World) -> Any:
    match_id = _scored(w)
    _review(w, w.clients[1], match_id, "confirm")
    return _review(w, w.clients[1], match_id, "confirm")


TABLE_PRODUCERS: dict[str, Callable[[World], Any]] = {
    "match_locked": _locked,
    "not_score_reader": lambda w: w.clients[3].get(f"/api/matches/{_table(w)}/score-log"),
    "table_match": lambda w: w.clients[0].get(f"/api/matches/{_table(w)}/legal-moves"),
    "not_table_match": lambda w: _scores(w, w.clients[0], w.playing.pk, [0, 1, 2]),
    "not_scorer": lambda w: _scores(w, w.clients[3], _table(w), [0, 1, 2]),
    "invalid_scores": lambda w: _scores(w, w.clients[0], _table(w), [-1, 1, 2]),
    "not_guest_seat": lambda w: w.clients[0].post(f"/api/matches/{_table(w)}/seats/0/claim-code"),
    "claim_code_unknown": lambda w: _claim(w, w.clients[2], "NOPE2345"),
    "own_entry": lambda w: _review(w, w.clients[0], _scored(w), "confirm"),
    "already_confirmed": _confirmed_twice,
    "no_dispute": lambda w: _review(w, w.clients[0], _scored(w), "resolve", note="ok"),
    "scorer_link_not_found": lambda w: w.clients[0].delete(
        f"/api/matches/{_table(w)}/scorer-links/999999"
    ),
    "claim_conflict": lambda w: _claim(w, w.clients[1], _claim_code(w, _table(w))),
}


def _profile_hidden(w: World) -> Any:
    hidden = w.players[1]
    Player.objects.filter(pk=hidden.pk).update(profile_visibility=Player.Visibility.NOBODY)
    return w.clients[0].get(f"/api/players/{hidden.pk}/stats")


def _avatar(world: World, body: bytes) -> Any:
    return world.clients[0].put("/api/players/me/avatar", data=body, content_type="image/png")


def _ask(w: World, asker: int, asked: int) -> Any:
    return w.clients[asker].post(
        "/api/friends/requests", {"player_id": w.players[asked].pk}, format="json"
    )


def _blocked(w: World) -> Any:
    w.clients[1].post(f"/api/players/{w.players[0].pk}/block")
    return _ask(w, 0, 1)


def _friend_request_closed(w: World) -> Any:
    request_id = _ask(w, 0, 1).json()["id"]
    w.clients[1].post(f"/api/friends/requests/{request_id}/decline")
    return w.clients[1].post(f"/api/friends/requests/{request_id}/accept")


def _already_friends(w: World) -> Any:
    request_id = _ask(w, 0, 1).json()["id"]
    w.clients[1].post(f"/api/friends/requests/{request_id}/accept")
    return _ask(w, 0, 1)


def _too_many_friend_requests(w: World) -> Any:
    with override_settings(FRIEND_REQUESTS_PENDING_MAX=1):
        _ask(w, 0, 1)
        return _ask(w, 0, 2)


PRODUCERS: dict[str, Callable[[World], Any]] = {
    **TABLE_PRODUCERS,
    "invalid": lambda w: w.clients[0].get("/api/matches/mine?status=won"),
    "parse_error": lambda w: w.clients[0].post(
        "/api/matches", "{nope", content_type="application/json"
    ),
    "body_too_deep": lambda w: w.clients[0].post(
        "/api/matches", "[" * 10_000 + "]" * 10_000, content_type="application/json"
    ),
    "too_many_items": lambda w: w.clients[0].post(
        "/api/matches", {"variant": "chickenfoot", "seats": [{}] * 1001}, format="json"
    ),
    "invalid_header": lambda w: w.move(w.mover(), w.play(), HTTP_IDEMPOTENCY_KEY="k" * 129),
    "body_too_large": lambda w: w.clients[0].post(
        "/api/matches", b'{"x": "' + b"a" * (1024 * 1024) + b'"}', content_type="application/json"
    ),
    "malformed_move": lambda w: w.move(w.mover(), w.play(version="2")),
    "avatar_too_large": lambda w: _avatar(w, b"\x89PNG" + b"\0" * (2 * 1024 * 1024)),
    "avatar_too_many_pixels": lambda w: _avatar(w, png_header_only(5000, 5000)),
    "avatar_not_an_image": lambda w: _avatar(w, b"<svg/>"),
    "avatar_animated": lambda w: _avatar(w, animated("PNG")),
    "avatar_damaged": lambda w: _avatar(w, encoded(noise((300, 300)))[:60000]),
    "avatar_not_found": lambda w: w.anonymous.get(f"/api/avatars/{'0' * 64}.webp"),
    "invalid_option": lambda w: w.clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "options": {"speed": 3},
            "seats": [{"kind": "creator"}] * 1 + [{"kind": "open"}],
        },
        format="json",
    ),
    "bad_request": _bad_host,
    "invalid_seats": lambda w: w.clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "creator"}]},
        format="json",
    ),
    "not_authenticated": lambda w: w.anonymous.get("/api/players/me"),
    "authentication_failed": lambda w: APIClient(HTTP_AUTHORIZATION="Token nope").get(
        "/api/players/me"
    ),
    "unsupported_auth_scheme": lambda w: APIClient(HTTP_AUTHORIZATION="Basic YWRhOng=").get(
        "/api/players/me"
    ),
    "token_not_found": lambda w: w.clients[0].delete("/api/auth/tokens/999999"),
    "push_device_not_found": lambda w: w.clients[0].delete("/api/push/devices/999999"),
    "invalid_credentials": lambda w: w.anonymous.post(
        "/api/auth/token", {"username": "ada", "password": "wrong"}, format="json"
    ),
    "permission_denied": lambda w: w.anonymous.get("/test/raise/denied"),
    "not_your_match": lambda w: w.clients[3].get(f"/api/matches/{w.playing.pk}"),
    "not_creator": lambda w: w.clients[1].post(f"/api/matches/{w.full_open.pk}/start"),
    "not_found": lambda w: w.anonymous.get("/api/nowhere"),
    "match_not_found": lambda w: w.clients[0].get("/api/matches/999999"),
    "round_not_found": lambda w: w.clients[0].get(f"/api/matches/{w.playing.pk}/board.svg?round=9"),
    "move_not_found": lambda w: w.clients[0].get(f"/api/matches/{w.playing.pk}/board.svg?seq=99"),
    "method_not_allowed": lambda w: w.clients[0].delete(f"/api/matches/{w.playing.pk}"),
    "not_acceptable": lambda w: w.clients[0].get("/api/players/me", HTTP_ACCEPT="application/xml"),
    "not_your_turn": lambda w: w.move(w.waiter(), w.play()),
    "stale_version": lambda w: w.move(w.mover(), w.play(version=w.playing.version - 1)),
    "version_ahead": lambda w: w.move(w.mover(), w.play(version=w.playing.version + 1)),
    "match_not_open": lambda w: w.clients[3].post(f"/api/matches/{w.playing.pk}/join", {}),
    "match_full": lambda w: w.clients[3].post(f"/api/matches/{w.full_open.pk}/join", {}),
    "bot_match_limit": _bot_match_limit,
    "seat_taken": lambda w: w.clients[3].post(
        f"/api/matches/{w.open.pk}/join", {"position": 0}, format="json"
    ),
    "already_seated": lambda w: w.clients[0].post(f"/api/matches/{w.open.pk}/join", {}),
    "seat_held": _seat_held,
    "invitation_not_found": lambda w: w.clients[0].delete("/api/invitations/999999"),
    "invitation_expired": _invitation_expired,
    "invitation_closed": _invitation_closed,
    "seats_open": lambda w: w.clients[0].post(f"/api/matches/{w.open.pk}/start"),
    "match_not_started": lambda w: w.clients[0].get(f"/api/matches/{w.open.pk}/board.svg"),
    "match_not_playing": lambda w: submit(w.clients[0], w.open.pk, {"kind": "draw", "version": 0}),
    "match_not_finished": lambda w: w.clients[0].get(f"/api/matches/{w.playing.pk}/record"),
    "not_organiser": lambda w: w.clients[0].post(f"/api/matches/{w.playing.pk}/finalise"),
    "results_incomplete": _results_incomplete,
    "chat_closed": _chat_closed,
    "player_not_found": lambda w: w.clients[0].get("/api/players/999999/stats"),
    "profile_hidden": _profile_hidden,
    "not_on_leaderboard": lambda w: w.clients[0].get("/api/leaderboards/chickenfoot?player=1"),
    "already_left": _already_left,
    "seat_left": _seat_left,
    "username_taken": lambda w: w.anonymous.post(
        "/api/players", {"username": "ada", "password": "correct horse battery"}, format="json"
    ),
    "email_taken": _email_taken,
    "not_in_queue": lambda w: w.clients[0].get("/api/queue"),
    "blocked": _blocked,
    "friend_request_not_found": lambda w: w.clients[0].post("/api/friends/requests/9999/accept"),
    "friend_request_closed": _friend_request_closed,
    "already_friends": _already_friends,
    "too_many_friend_requests": _too_many_friend_requests,
    "friend_not_found": lambda w: w.clients[0].delete(f"/api/friends/{w.players[1].pk}"),
    "block_not_found": lambda w: w.clients[0].delete(f"/api/players/{w.players[1].pk}/block"),
    "already_queued": _already_queued,
    "queue_matched": _queue_matched,
    "hints_off": lambda w: w.clients[0].get(f"/api/matches/{w.playing.pk}/hint"),
    "hint_limit": _hint_limit,
    "invalid_link": lambda w: w.anonymous.post(
        "/api/auth/password-reset/confirm",
        {"uid": "MQ", "token": "made-up", "new_password": "a brand new passphrase"},
        format="json",
    ),
    "still_organising": _still_organising,
    "unsupported_media_type": lambda w: w.clients[0].post(
        "/api/matches", "variant=chickenfoot", content_type="text/plain"
    ),
    "rule_violation": _rule_violation,
    "idempotency_key_reused": _idempotency_key_reused,
    "version_required": lambda w: w.move(
        w.mover(), {k: v for k, v in w.play().items() if k != "version"}
    ),
    "invalid_competition": lambda w: _organiser(w).post(
        "/api/competitions", TOURNAMENT, format="json"
    ),
    "stage_scoring_started": _stage_scoring_started,
    "division_mismatch": _division_mismatch,
    "division_fixed": _division_fixed,
    "divisions_seated": _divisions_seated,
    "division_not_found": lambda w: w.clients[0].get(_competition(w, "/standings?division=A")),
    "invalid_csv": lambda w: _organiser(w).generic(
        "POST", _competition(w, "/entrants"), b"username\nnobody\n", content_type="text/csv"
    ),
    "competition_not_found": lambda w: w.clients[0].get("/api/competitions/999"),
    "registration_closed": lambda w: w.clients[0].post(_competition(w, "/register", close=True)),
    "already_registered": lambda w: _twice(w, "register"),
    "not_registered": lambda w: w.clients[0].post(_competition(w, "/withdraw")),
    "competition_status": lambda w: _organiser(w).post(_competition(w, "/close", close=True)),
    "wrong_stage": lambda w: _organiser(w).post(
        _competition(w, "/stages", close=True), {"number": 2}, format="json"
    ),
    "too_few_players": lambda w: _organiser(w).post(
        _competition(w, "/stages", close=True), {"number": 1}, format="json"
    ),
    "league_refused": _league_refused,
    "not_league_player": _not_league_player,
    "throttled": _throttled,
    "locked_out": _locked_out,
    "busy": _busy,
    "internal_error": lambda w: APIClient(raise_request_exception=False).get("/test/raise/boom"),
    "database_unavailable": lambda w: w.anonymous.get("/test/raise/database-down"),
    "cache_unavailable": _cache_unavailable,
}


def test_the_table_is_read_whole() -> None:
    codes = [row.code for row in documented()]

    assert len(codes) == len(set(codes)) >= 30
    assert {"invalid", "malformed_move", "version_ahead", "internal_error"} <= set(codes)


@pytest.mark.parametrize(
    "row", [row for row in documented() if row.code not in PROXY_CODES], ids=lambda row: row.code
)
def test_each_documented_problem_is_sent_as_documented(
    players: list[Player], row: Documented
) -> None:
    assert row.code in PRODUCERS, (
        f"docs/errors.md lists {row.code!r}: add a request that gets it to PRODUCERS"
    )
    world = World(players)

    response = PRODUCERS[row.code](world)

    assert response["Content-Type"] == "application/problem+json", response.content
    body = response.json()
    assert (body["code"], body["status"], body["title"]) == (row.code, row.status, row.title)
    assert response.status_code == row.status
    assert body["type"] == "https://chickenfoot.dev/problems/" + row.code.replace("_", "-")


def test_every_producer_is_documented() -> None:
    """Every row is sent by the application, or by the proxy in front of it
    (tests/foundation/test_reverse_proxy.py sends those through nginx)."""
    assert set(PRODUCERS) | set(PROXY_CODES) == {row.code for row in documented()}
    assert not set(PRODUCERS) & set(PROXY_CODES)


def test_not_modified_is_the_one_answer_without_a_body(players: list[Player]) -> None:
    world = World(players)
    version = world.playing.version

    response = world.clients[0].get(
        f"/api/matches/{world.playing.pk}", HTTP_IF_NONE_MATCH=f'"{version}"'
    )

    assert response.status_code == HTTPStatus.NOT_MODIFIED
    assert response.content == b""
