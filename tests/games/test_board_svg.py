"""The table as a picture: what is drawn equals the layout; nothing hidden is drawn (C-HIDDEN)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import engine
from games.models import Match, Move, Player, Round
from games.pictures.board import board_svg
from games.pictures.tiles import tile_key
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_turn

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"


def drawn(svg: str, role: str | None = None) -> list[str]:
    """The ``data-tile`` of every tile drawn (of one role), parsed from the SVG as XML."""
    root = ET.fromstring(svg)  # noqa: S314 (our own output)
    return [
        g.get("data-tile", "")
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "tile" and (role is None or g.get("data-role") == role)
    ]


def layout_tiles(view: dict[str, Any]) -> list[str]:
    """Every tile of a view's layout, as the picture names them (centre excluded)."""
    layout = view["layout"]
    if view["variant"] == "mexican_train":
        chains = layout["trains"]
    else:
        chains = layout["arms"] + [toe for foot in layout["feet"] for toe in foot["toes"]]
    return [tile_key(a, b) for chain in chains for a, b in chain["tiles"]]


def hidden_from(state: Any, seat: int | None) -> set[str]:
    """The tiles ``seat`` may not see: the boneyard and every other hand."""
    hidden = {tile_key(a, b) for a, b in state.boneyard}
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {tile_key(a, b) for a, b in hand}
    return hidden


def play_until(state: Any, predicate: Callable[[Any], bool], seed: int = 1) -> Any:
    """Random legal moves within the current round until ``predicate(state)`` holds."""
    rng = random.Random(seed)
    start = state.round_no
    while not predicate(state):
        before = engine.to_json(state)
        state, _ = engine.apply_move(
            state, state.turn, rng.choice(engine.legal_moves(state, state.turn))
        )
        if state.round_no != start or state.status == "over":
            return engine.from_json(before)
    return state


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("chickenfoot", {}),
        ("chickenfoot", {"spinner_arms": 6}),
        ("mexican_train", {}),
        ("mexican_train", {"max_pip": 9}),
    ],
)
@pytest.mark.parametrize("seat", [0, 2, None])
def test_C_HIDDEN_picture_draws_the_layout_and_the_own_hand_only(
    variant: str, options: dict[str, Any], seat: int | None
) -> None:
    state = engine.new_match(variant, 4, options, seed="picture")
    state = play_until(state, lambda s: s.move_no >= 40)
    view = engine.view(state, seat)
    svg = board_svg(view, names=["Ada", "Grace", "Alan", "Edsger"])

    assert sorted(drawn(svg, "layout")) == sorted(layout_tiles(view))
    start = view["start_double"][0]
    assert drawn(svg, "centre") == [tile_key(start, start)]
    hand = [tile_key(a, b) for a, b in view.get("hand", [])]
    assert sorted(drawn(svg, "hand")) == sorted(hand)
    assert not set(drawn(svg)) & hidden_from(state, seat)
    assert drawn(svg, "revealed") == []


def test_CF_FOOT_every_foot_and_toe_is_drawn_on_its_own_row() -> None:
    state = engine.new_match("chickenfoot", 4, {}, seed="feet")
    state = play_until(state, lambda s: len(s.feet) >= 3, seed=5)
    view = engine.view(state, None)
    assert len(view["layout"]["feet"]) >= 3
    svg = board_svg(view, names=["A", "B", "C", "D"])
    root = ET.fromstring(svg)  # noqa: S314
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    # Each chain's tiles share one row: no two tiles of different chains overlap.
    boxes = []
    for g in tiles:
        rect = g.find(f"{SVG}rect")
        x, y = float(rect.get("x")), float(rect.get("y"))
        boxes.append((x, y, x + float(rect.get("width")), y + float(rect.get("height"))))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "chain-label"]
    assert len(labels) == 4 + 3 * len(view["layout"]["feet"])


def test_MT_TRAINS_markers_and_open_doubles_are_drawn() -> None:
    state = engine.new_match("mexican_train", 3, {}, seed="markers")
    state = play_until(state, lambda s: any(s.markers) and s.move_no > 10, seed=2)
    view = engine.view(state, 0)
    svg = board_svg(view, names=["A", "B", "C"])
    root = ET.fromstring(svg)  # noqa: S314
    markers = [c.get("data-train") for c in root.iter(f"{SVG}circle") if c.get("class") == "marker"]
    assert sorted(markers) == sorted(f"seat:{s}" for s in view["layout"]["markers"])
    trains = [
        t.get("data-train") for t in root.iter(f"{SVG}text") if t.get("class") == "train-label"
    ]
    assert trains == ["seat:0", "seat:1", "seat:2", "mexican"]


def _box(element: ET.Element) -> tuple[float, float, float, float]:
    """A tile's rectangle, or a one-line text's extent as the picture reckons it (0.6 em a
    character, ascent 0.8 em, descent 0.3 em): (left, top, right, bottom)."""
    if element.tag == f"{SVG}g":
        rect = element.find(f"{SVG}rect")
        x, y = float(rect.get("x")), float(rect.get("y"))
        return x, y, x + float(rect.get("width")), y + float(rect.get("height"))
    size = float(element.get("font-size"))
    x, y = float(element.get("x")), float(element.get("y"))
    return x, y - 0.8 * size, x + len(element.text or "") * 0.6 * size, y + 0.3 * size


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return not (a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1])


@pytest.mark.parametrize("seats", [2, 4, 7])
def test_MT_TRAINS_no_train_label_touches_the_engine_or_a_tile(seats: int) -> None:
    # given trains whose owners have long names, the middle one level with the engine
    state = engine.new_match("mexican_train", seats, {}, seed="labels")
    state = play_until(state, lambda s: s.move_no >= 3 * seats, seed=3)
    names = [f"Alexandria Ocasio-Wolfeschlegelsteinhausen {i}" for i in range(seats)]

    # when the table is drawn
    root = ET.fromstring(board_svg(engine.view(state, 0), names=names))  # noqa: S314

    # then no label's box meets the engine double or any tile on the table
    labels = [t for t in root.iter(f"{SVG}text") if t.get("class") == "train-label"]
    assert len(labels) == seats + 1
    tiles = [
        g
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "tile" and g.get("data-role") in ("centre", "layout")
    ]
    engine_double = next(g for g in tiles if g.get("data-role") == "centre")
    for label in labels:
        assert not _overlap(_box(label), _box(engine_double)), label.text
        for other in tiles:
            assert not _overlap(_box(label), _box(other)), (label.text, other.get("data-tile"))


def test_names_are_escaped() -> None:
    state = engine.new_match("chickenfoot", 2, {}, seed="escape")
    svg = board_svg(engine.view(state, 0), names=["<script>alert(1)</script>", "B & C"])
    root = ET.fromstring(svg)  # noqa: S314
    assert not list(root.iter(f"{SVG}script"))
    assert "<script>" not in svg


# --- over HTTP ---------------------------------------------------------------------------------


def picture(client: APIClient, match_id: int, **query: Any) -> Any:
    return client.get(f"/api/matches/{match_id}/board.svg", query)


def test_picture_over_http_with_etag(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match("chickenfoot", 3)
    response = picture(clients[1], match.pk)
    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("image/svg+xml")
    assert response["ETag"] == f'"{match.version}"'
    state = engine.from_json(match.state)
    svg = response.content.decode()
    assert sorted(drawn(svg, "hand")) == sorted(tile_key(a, b) for a, b in state.hands[1])
    assert not set(drawn(svg)) & hidden_from(state, 1)
    # hand=false: the same table without the hand (the web table draws it as buttons)
    bare = picture(clients[1], match.pk, hand="false")
    assert bare.status_code == HTTPStatus.OK
    assert drawn(bare.content.decode(), "hand") == []
    assert sorted(drawn(bare.content.decode(), "layout")) == sorted(drawn(svg, "layout"))
    assert "Your hand" not in bare.content.decode()
    again = clients[1].get(
        f"/api/matches/{match.pk}/board.svg", HTTP_IF_NONE_MATCH=response["ETag"]
    )
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    # a round or a move that is not there is a 404 even to a caller holding the version
    for query in ("round=9", "seq=999"):
        missing = clients[1].get(
            f"/api/matches/{match.pk}/board.svg?{query}", HTTP_IF_NONE_MATCH=response["ETag"]
        )
        assert missing.status_code == HTTPStatus.NOT_FOUND, query


def test_picture_of_a_finished_round_and_after_a_move(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match("chickenfoot", 3, {"hand_size": 3})
    rng = random.Random(4)
    while not Round.objects.filter(match=match, status=Round.Status.FINISHED).exists():
        play_turn(clients, match.pk, rng)
    match.refresh_from_db()
    first = Round.objects.get(match=match, number=1)
    moves = list(Move.objects.filter(round=first).order_by("seq"))
    ended = next(e for e in moves[-1].events if e["type"] == "round_ended")

    final = picture(clients[2], match.pk, round=1)
    assert final.status_code == HTTPStatus.OK, final.content
    svg = final.content.decode()
    played = [tile_key(*m.tile) for m in moves if m.kind == "play"]
    assert sorted(drawn(svg, "layout")) == sorted(played)
    revealed = [tile_key(a, b) for hand in ended["hands"] for a, b in hand]
    assert sorted(drawn(svg, "revealed")) == sorted(revealed)
    assert "final position" in svg

    # After the first move only: that tile on the table, and seat 2's hand as it was then.
    first_play = next(m for m in moves if m.kind == "play")
    after = picture(clients[2], match.pk, seq=first_play.seq)
    assert after.status_code == HTTPStatus.OK
    svg = after.content.decode()
    upto = [tile_key(*m.tile) for m in moves if m.kind == "play" and m.seq <= first_play.seq]
    assert sorted(drawn(svg, "layout")) == sorted(upto)
    snapshot = engine.from_json(first.snapshot)
    held = {tile_key(a, b) for a, b in snapshot.hands[2]}
    assert set(drawn(svg, "hand")) <= held
    assert drawn(svg, "revealed") == []
    # The running round's picture at a past move never shows another seat's hand.
    current = engine.from_json(match.state)
    current_moves = list(Move.objects.filter(match=match, round=match.current_round_id))
    if current_moves:
        svg = picture(clients[2], match.pk, seq=current_moves[0].seq).content.decode()
        assert not set(drawn(svg)) & hidden_from(current, 2) - {
            tile_key(*m.tile) for m in current_moves if m.tile
        }


@pytest.mark.parametrize(
    ("query", "status", "code"),
    [
        ({"round": 0}, HTTPStatus.BAD_REQUEST, "invalid"),
        ({"round": 9}, HTTPStatus.NOT_FOUND, "round_not_found"),
        ({"seq": 999}, HTTPStatus.NOT_FOUND, "move_not_found"),
        ({"seq": "x"}, HTTPStatus.BAD_REQUEST, "invalid"),
    ],
)
def test_picture_refusals(
    started_match: Callable[..., Match],
    clients: list[APIClient],
    query: dict[str, Any],
    status: int,
    code: str,
) -> None:
    match = started_match("chickenfoot", 3)
    response = picture(clients[0], match.pk, **query)
    assert response.status_code == status
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == code


def test_picture_of_an_open_match_and_for_outsiders(
    players: list[Player], started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    from games.services import SeatSpec, match_create

    waiting = match_create(
        creator=players[0],
        variant="chickenfoot",
        seats=[SeatSpec(kind="creator"), SeatSpec(kind="open")],
    )
    response = picture(clients[0], waiting.pk)
    assert response.status_code == HTTPStatus.CONFLICT
    assert response.json()["code"] == "match_not_started"

    match = started_match("chickenfoot", 2)
    outsider = client_for(PlayerFactory())
    assert picture(outsider, match.pk).status_code == HTTPStatus.FORBIDDEN
    organiser = client_for(PlayerFactory(is_organiser=True))
    svg = picture(organiser, match.pk).content.decode()
    assert drawn(svg, "hand") == []
    assert not set(drawn(svg)) & hidden_from(engine.from_json(match.state), None)


def test_scores_chart_shows_cumulative_totals(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    match = started_match("chickenfoot", 3, {"hand_size": 3, "rounds": 3})
    rng = random.Random(9)
    while play_turn(clients, match.pk, rng) is not None:
        pass
    match.refresh_from_db()
    response = clients[1].get(f"/api/matches/{match.pk}/scores.svg")
    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("image/svg+xml")
    root = ET.fromstring(response.content)  # noqa: S314
    points = {
        (c.get("data-series"), c.get("data-step")): float(c.get("data-value"))
        for c in root.iter(f"{SVG}circle")
        if c.get("class") == "point"
    }
    scores = match.state["scores"]
    for seat, name in enumerate(["Ada", "Grace", "Alan"]):
        assert points[(name, "start")] == 0
        running = 0
        for number, row in enumerate(scores, start=1):
            running += row[seat]
            assert points[(name, f"R{number}")] == running
    assert (
        clients[1]
        .get(f"/api/matches/{match.pk}/scores.svg", HTTP_IF_NONE_MATCH=response["ETag"])
        .status_code
        == 304
    )


def test_a_picture_in_another_language_has_an_etag_of_its_own(
    started_match: Callable[..., Match], clients: list[APIClient]
) -> None:
    """A reader who changes language gets the picture anew, its labels in the new language:
    the ETag names the language (none for English)."""
    match = started_match("chickenfoot", 3)
    english = picture(clients[1], match.pk)
    lao = clients[1].get(
        f"/api/matches/{match.pk}/board.svg",
        HTTP_ACCEPT_LANGUAGE="lo",
        HTTP_IF_NONE_MATCH=english["ETag"],
    )
    assert lao.status_code == HTTPStatus.OK
    assert lao["ETag"] == f'"{match.version}-lo"' != english["ETag"]
    assert lao["Content-Language"] == "lo"
    assert lao.content != english.content
    again = clients[1].get(
        f"/api/matches/{match.pk}/board.svg",
        HTTP_ACCEPT_LANGUAGE="lo",
        HTTP_IF_NONE_MATCH=lao["ETag"],
    )
    assert again.status_code == HTTPStatus.NOT_MODIFIED
