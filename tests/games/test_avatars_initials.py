"""The default avatar: a player's initials drawn in the bundled fonts' outlines, their name the
picture's title, escaped whatever it holds; served at the address of its bytes."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from threading import Barrier

import pytest
from rest_framework.test import APIClient

from games.avatars import initials as module
from games.avatars.initials import initials, initials_svg
from games.models import Player
from tests.foundation.hostile import HOSTILE, STORABLE, as_attribute, parse, shape

SVG = "{http://www.w3.org/2000/svg}"


def title(svg: str) -> str:
    (found,) = [e.text or "" for e in parse(svg).iter(f"{SVG}title")]
    return found


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_the_title_as_text_and_adds_no_markup(name: str) -> None:
    svg = initials_svg(name, 7)
    letters = len(initials(name))
    plain = {0: "", 1: "Ada", 2: "Ada Lovelace"}[letters]

    assert shape(svg) == shape(initials_svg(plain, 7))
    assert title(svg) == as_attribute(name)
    for tag in ("script", "image", "foreignObject", "style", "text"):
        assert not list(parse(svg).iter(f"{SVG}{tag}"))


@pytest.mark.parametrize(
    ("name", "letters"),
    [
        ("Ada Lovelace", "AL"),
        ("grace brewster hopper", "GH"),
        ("ສົມ ພອນ", "ສພ"),  # Lao
        ("สมชาย", "ส"),  # Thai
        ("Արամ Խաչատրյան", "ԱԽ"),  # Armenian, upper-cased
        ("李雷", ""),  # no bundled face has it: the disc alone
        ("  ", ""),
    ],
)
def test_initials_are_the_first_and_last_words_first_letters(name: str, letters: str) -> None:
    assert initials(name) == letters
    paths = list(parse(initials_svg(name, 1)).iter(f"{SVG}path"))
    assert len(paths) == (1 if letters else 0)


@pytest.mark.django_db
@pytest.mark.parametrize("name", STORABLE)
def test_the_default_avatar_is_served_at_the_hash_of_its_bytes(
    name: str, players: list[Player], clients: list[APIClient]
) -> None:
    Player.objects.filter(pk=players[1].pk).update(display_name=name)
    url = clients[0].get(f"/api/players/{players[1].pk}").json()["avatar_url"]

    served = APIClient().get(url.removeprefix("http://testserver"))

    assert served.status_code == HTTPStatus.OK
    assert served["Content-Type"].startswith("image/svg+xml")
    digest = hashlib.sha256(served.content).hexdigest()
    assert url.endswith(f"/api/players/{players[1].pk}/avatar/{digest}.svg")
    assert served["ETag"] == f'"{digest}"'
    assert served["Cache-Control"] == "public, max-age=31536000, immutable"
    assert "default-src 'none'" in served["Content-Security-Policy"]
    assert title(served.content.decode()) == as_attribute(name)
    held = APIClient().get(url.removeprefix("http://testserver"), HTTP_IF_NONE_MATCH=f'"{digest}"')
    assert held.status_code == HTTPStatus.NOT_MODIFIED


@pytest.mark.django_db
def test_a_renamed_players_old_address_is_not_found(
    players: list[Player], clients: list[APIClient]
) -> None:
    url = clients[0].get(f"/api/players/{players[1].pk}").json()["avatar_url"]
    Player.objects.filter(pk=players[1].pk).update(display_name="Someone Else")

    response = APIClient().get(url.removeprefix("http://testserver"))

    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response.json()["code"] == "avatar_not_found"
    assert clients[0].get(f"/api/players/{players[1].pk}").json()["avatar_url"] != url


def test_default_avatars_drawn_in_many_threads_at_once_are_whole() -> None:
    """The faces are read lazily; threads drawing the first avatars at once (a match listed by
    two server threads) each get the whole picture, the same as one thread draws it."""
    names = ["Ada Lovelace", "ສົມພອນ ແກ້ວ", "สมชาย ใจดี", "Արամ Խաչատրյան", "Ñandú Öz", "Zoë"] * 2

    def fresh() -> None:
        module._font.cache_clear()
        module._face_of.cache_clear()
        initials_svg.cache_clear()

    fresh()
    serial = [initials_svg(name, n) for n, name in enumerate(names)]
    for _ in range(5):
        fresh()
        start = Barrier(len(names))
        with ThreadPoolExecutor(len(names)) as pool:
            drawn = pool.map(lambda n, start=start: _draw_after(start, names[n], n), range(12))
            assert list(drawn) == serial


def _draw_after(start: Barrier, name: str, player_id: int) -> str:
    start.wait()
    return initials_svg(name, player_id)
