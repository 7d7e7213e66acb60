"""Play a whole match through the Python client generated from /api/schema/.

    python clients/python/play_match.py http://127.0.0.1:8000 chickenfoot

A human (this script) against two bots: register, create, start, then poll the match with its
ETag and, on our turn, send back the first legal move with the version it answers, until the
match is over. Uses only the generated client's typed models (``mypy --strict`` checks it), so it
fails to type-check when the schema loses precision. ``chickenfoot_client`` is the package
``openapi-python-client`` generates (.ci/run and tests/games/test_generated_client.py put it on
``sys.path``).
"""

from __future__ import annotations

import sys
import time
import uuid
from dataclasses import dataclass
from http import HTTPStatus
from typing import TypeVar

from chickenfoot_client import AuthenticatedClient, Client
from chickenfoot_client.api.accounts import player_register
from chickenfoot_client.api.matches import match_create, match_detail, match_rounds, match_start
from chickenfoot_client.api.play import legal_moves, move_log, move_submit
from chickenfoot_client.models import (
    BotSeatKindEnum,
    BotSeatRequest,
    ChickenFootMatchCreateRequest,
    ChickenFootOptionsRequest,
    ChickenFootState,
    ChickenFootVariantEnum,
    CreatorSeatKindEnum,
    CreatorSeatRequest,
    LegalMoves,
    MatchRounds,
    MatchStatusEnum,
    MatchSummary,
    MatchView,
    MexicanTrainMatchCreateRequest,
    MexicanTrainMaxPipEnum,
    MexicanTrainOptionsRequest,
    MexicanTrainState,
    MexicanTrainVariantEnum,
    MoveLog,
    MoveSubmitRequest,
    MoveSubmitted,
    PlayerRegisterRequest,
    PlayerToken,
    Problem,
    SpinnerArmsEnum,
)

T = TypeVar("T")
POLL_SECONDS = 0.05
MOVE_LIMIT = 5000


@dataclass
class Played:
    """What a finished match showed this player."""

    match_id: int
    moves: int
    rounds: int
    places: list[tuple[int, str, int]]  # (place, name, total)


class Refused(Exception):
    """The server answered a problem where the script expected success."""


def _ok(answer: T | Problem | None, what: str) -> T:
    if isinstance(answer, Problem):
        raise Refused(f"{what}: {answer.status} {answer.code.value}: {answer.detail}")
    if answer is None:
        raise Refused(f"{what}: no answer the schema describes")
    return answer


def _fresh(answer: T | Problem | str | None, what: str) -> T:
    """An answer asked without ``If-None-Match``: never the 304, which the schema types as an
    empty text (``str``), so that a poll tells it from the answer without a cast."""
    if isinstance(answer, str):
        raise Refused(f"{what}: 304 Not Modified to a request that held no ETag")
    return _ok(answer, what)


def _create_body(
    variant: str,
) -> ChickenFootMatchCreateRequest | MexicanTrainMatchCreateRequest:
    me = CreatorSeatRequest(kind=CreatorSeatKindEnum.CREATOR)
    bots = [BotSeatRequest(kind=BotSeatKindEnum.BOT, level=level) for level in (1, 3)]
    if variant == "chickenfoot":
        return ChickenFootMatchCreateRequest(
            variant=ChickenFootVariantEnum.CHICKENFOOT,
            seats=[me, *bots],
            options=ChickenFootOptionsRequest(rounds=2, spinner_arms=SpinnerArmsEnum.VALUE_4),
        )
    return MexicanTrainMatchCreateRequest(
        variant=MexicanTrainVariantEnum.MEXICAN_TRAIN,
        seats=[me, *bots],
        options=MexicanTrainOptionsRequest(max_pip=MexicanTrainMaxPipEnum.VALUE_9, rounds=2),
    )


def _whose_turn(view: MatchView) -> int | None:
    state = view.state
    if isinstance(state, ChickenFootState | MexicanTrainState):
        return state.turn
    return None


def play_match(base_url: str, variant: str) -> Played:
    """Register, create a match against two bots, play it to the end; what it showed."""
    anonymous = Client(base_url=base_url, raise_on_unexpected_status=True)
    name = f"client-{uuid.uuid4().hex[:10]}"
    account: PlayerToken = _ok(
        player_register.sync(
            client=anonymous,
            body=PlayerRegisterRequest(username=name, password="correct horse battery staple"),
        ),
        "register",
    )
    client = AuthenticatedClient(
        base_url=base_url, token=account.token, raise_on_unexpected_status=True
    )
    created: MatchSummary = _ok(
        match_create.sync(client=client, body=_create_body(variant)), "create"
    )
    assert created.variant.value == variant
    view: MatchView = _ok(match_start.sync(created.id, client=client), "start")
    etag = f'"{view.version}"'
    moves = 0
    while view.status == MatchStatusEnum.PLAYING:
        if _whose_turn(view) == view.your_seat:
            legal: LegalMoves = _fresh(legal_moves.sync(created.id, client=client), "legal moves")
            choice = legal.moves[0]
            submitted: MoveSubmitted = _ok(
                move_submit.sync(
                    created.id,
                    client=client,
                    body=MoveSubmitRequest(
                        kind=choice.kind,
                        tile=choice.tile,
                        target=choice.target,
                        version=legal.version,
                    ),
                    idempotency_key=str(uuid.uuid4()),
                ),
                "move",
            )
            moves += 1
            if moves > MOVE_LIMIT:
                raise Refused(f"match {created.id} did not end in {MOVE_LIMIT} moves")
            assert submitted.move.seat == view.your_seat
        polled = match_detail.sync_detailed(created.id, client=client, if_none_match=etag)
        if isinstance(polled.parsed, str):  # 304 Not Modified: the bots are still thinking
            time.sleep(POLL_SECONDS)
            continue
        view = _ok(polled.parsed, "poll")
        etag = polled.headers["ETag"]
    rounds: MatchRounds = _rounds_twice(created.id, client)
    log: MoveLog = _ok(move_log.sync(created.id, client=client), "log")
    assert log.moves, "a finished match has moves"
    standings = view.standings or []
    return Played(
        match_id=created.id,
        moves=moves,
        rounds=len(rounds.rounds),
        places=[(place.place, place.name or "?", place.total) for place in standings],
    )


def _rounds_twice(match_id: int, client: AuthenticatedClient) -> MatchRounds:
    """The rounds, then asked again with their ETag: the typed 304 (the same rounds)."""
    first = match_rounds.sync_detailed(match_id, client=client)
    rounds: MatchRounds = _fresh(first.parsed, "rounds")
    again = match_rounds.sync_detailed(match_id, client=client, if_none_match=first.headers["ETag"])
    if not isinstance(again.parsed, str) or again.status_code != HTTPStatus.NOT_MODIFIED:
        raise Refused(f"rounds again with their ETag: {again.status_code}, not 304")
    return rounds


def main(argv: list[str]) -> int:
    base_url = argv[1] if len(argv) > 1 else "http://127.0.0.1:8000"
    variants = argv[2:] or ["chickenfoot", "mexican_train"]
    for variant in variants:
        played = play_match(base_url, variant)
        print(
            f"{variant}: match {played.match_id} over after {played.rounds} rounds; "
            f"{played.moves} moves of ours; standings {played.places}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
