"""The languages' "done when" (docs/web.md, "Languages"): a player whose client asks for Lao,
Thai, Armenian or Cebuano plays a round of Chicken Foot through the API, reads a refused move's
reason in that language (its ``code``, ``type`` and ``rule`` those of the English answer), and
prints a table card in that language; every answer names the language it speaks."""

from __future__ import annotations

import random
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Match, Player
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.conftest import FIXED_SEED
from tests.games.factories import PlayerFactory, token_for
from tests.games.helpers import play_turn, submit
from tests.games.paper_reading import page_texts
from tests.scoring.competitions.table_event import API, started_event

pytestmark = pytest.mark.django_db

#: Each language, and two players named in its script.
LANGUAGES = {
    "lo": ("ສົມພອນ", "ບຸນມີ"),
    "th": ("สมชาย", "มาลี"),
    "hy": ("Արամ", "Անի"),
    "ceb": ("Maria Santos", "Jose Reyes"),
}
REFUSED = "You do not hold %(tile)s: a play is a tile from your hand."


@pytest.fixture(autouse=True)
def _english_after() -> Any:
    yield
    translation.activate("en")


def client_in(player: Player, language: str | None) -> APIClient:
    """A client acting as ``player`` whose every request asks for ``language``."""
    client = APIClient(**({"HTTP_ACCEPT_LANGUAGE": language} if language else {}))
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
    return client


def in_language(response: Any, language: str) -> Any:
    assert response["Content-Language"] == language, response.get("Content-Language")
    return response


def translated(msgid: str, language: str, **params: str) -> str:
    """``msgid`` in ``language``, from the compiled catalog; it must not be the English."""
    with translation.override(language):
        text = translation.gettext(msgid)
    assert text != msgid, (language, msgid)
    return text % params if params else text


def two_seat_match(players: list[Player]) -> Match:
    """A two-player Chicken Foot match of one round in the double-six set, started."""
    seats = [SeatSpec(kind="creator"), SeatSpec(kind="open")]
    options = {"max_pip": 6, "rounds": 1}
    match = match_create(creator=players[0], variant="chickenfoot", seats=seats, options=options)
    Match.objects.filter(pk=match.pk).update(seed=FIXED_SEED)
    seat_join(match_id=match.pk, player=players[1], position=1)
    match_start(match_id=match.pk, player=players[0])
    match.refresh_from_db()
    return match


def a_tile_not_held(hand: list[list[int]], top: int) -> list[int]:
    held = {tuple(sorted(tile)) for tile in hand}
    return next([a, b] for a in range(top + 1) for b in range(a, top + 1) if (a, b) not in held)


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_player_plays_a_round_and_reads_the_refusal_in_the_language(language: str) -> None:
    # given: two players whose clients ask for the language, at a match of one round
    names = LANGUAGES[language]
    players = [PlayerFactory(display_name=name) for name in names]
    clients = [client_in(player, language) for player in players]
    match = two_seat_match(players)
    turn = match.state["turn"]
    tile = a_tile_not_held(match.state["hands"][turn], match.options["max_pip"])
    legal = in_language(clients[turn].get(f"/api/matches/{match.pk}/legal-moves"), language)
    play = next(m for m in legal.json()["moves"] if m["kind"] == "play")
    move = {**play, "tile": tile, "version": match.version}

    # when: the seat to move plays a tile it does not hold, in the language and in English
    refused = in_language(submit(clients[turn], match.pk, move), language)
    english = submit(client_in(players[turn], None), match.pk, move)

    # then: a 422 problem whose words are the catalog's, and whose identity is the English one
    assert refused.status_code == english.status_code == HTTPStatus.UNPROCESSABLE_ENTITY
    assert refused["Content-Type"] == "application/problem+json"
    body, english_body = refused.json(), english.json()
    assert english_body["title"] == "Rule violation"
    assert english_body["detail"] == REFUSED % {"tile": f"{tile[0]}|{tile[1]}"}
    assert body["title"] == translated("Rule violation", language)
    assert body["detail"] == translated(REFUSED, language, tile=f"{tile[0]}|{tile[1]}")
    for key in ("code", "type", "rule", "status"):
        assert body[key] == english_body[key], key
    assert (body["code"], body["rule"]) == ("rule_violation", "CF-ONE")

    # when: they play the round out, every answer in the language
    seen: list[Any] = []
    rng = random.Random(language)
    for _move in range(500):
        if play_turn(clients, match.pk, rng, seen) is None:
            break
    # then: the round, and with it the match, is over; every answer spoke the language
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.moves_played == len(seen) // 2 > 0
    for _turn, response in seen:
        in_language(response, language)
    final = in_language(clients[0].get(f"/api/matches/{match.pk}"), language).json()
    assert final["status"] == "finished"


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_table_card_prints_in_the_language(language: str) -> None:
    # given: an organiser whose client asks for the language, and a table of two started
    names = list(LANGUAGES[language])
    organiser = PlayerFactory(display_name="Olga", is_organiser=True)
    client = client_in(organiser, language)
    cid, _players = started_event(client, names, name="Club night")

    # when
    response = in_language(client.get(f"{API}/{cid}/stages/1/table-cards.pdf"), language)

    # then: the card's labels are the catalog's, and the players' names read back as written
    assert response.status_code == HTTPStatus.OK, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    (text,) = page_texts(bytes(response.content))
    flat = " ".join(text.split())
    assert translated("Stage %(stage)s · Table %(table)s", language, stage="1", table="1") in flat
    assert translated("Round", language) in flat
    assert translated("Scorer code", language) in flat
    seat = "Seat %(number)s: %(name)s"
    for name in names:
        lines = {translated(seat, language, number=str(n), name=name) for n in (1, 2)}
        assert any(line in flat for line in lines), (name, flat)
        assert text.count(name) >= 3, name  # a seat line, the grid's column, a signature
    for english in ("Scorer code", "Signatures: each player signs"):
        assert english not in flat
