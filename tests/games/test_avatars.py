"""Avatars: ``PUT``/``DELETE /api/players/me/avatar``, what an upload becomes and what it is
refused for, and the pictures served from their content addresses."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from PIL import Image
from rest_framework.test import APIClient

from games.avatars.images import AVATAR_MAX_BYTES
from games.avatars.models import PlayerAvatar
from games.models import Player
from tests.games.avatar_images import (
    XMP,
    animated,
    encoded,
    halves,
    jpeg_with_metadata,
    noise,
    png_header_only,
    riff_chunks,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("avatar_folder")]

AVATAR = "/api/players/me/avatar"


def stored(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*")) if folder.exists() else []


def upload(client: APIClient, body: bytes, media: str = "image/png") -> Any:
    return client.put(AVATAR, data=body, content_type=media)


def fetched(client: APIClient, url: str, **headers: str) -> Any:
    return client.get(url.removeprefix("http://testserver"), headers=headers)


def webp(body: bytes) -> Image.Image:
    picture = Image.open(io.BytesIO(body))
    assert picture.format == "WEBP"
    return picture


def test_an_upload_is_served_at_256_and_64_pixels_from_the_hash_of_its_bytes(
    clients: list[APIClient], players: list[Player], avatar_folder: Path
) -> None:
    response = upload(clients[0], encoded(noise((300, 200))))

    assert response.status_code == HTTPStatus.OK, response.content
    body = response.json()
    assert body["uploaded"] is True
    for key, side in (("avatar_url", 256), ("avatar_small_url", 64)):
        url = body[key]
        served = fetched(APIClient(), url)  # anyone: no token
        assert served.status_code == HTTPStatus.OK
        assert served["Content-Type"] == "image/webp"
        digest = hashlib.sha256(served.content).hexdigest()
        assert url == f"http://testserver/api/avatars/{digest}.webp"
        assert served["ETag"] == f'"{digest}"'
        assert served["Cache-Control"] == "public, max-age=31536000, immutable"
        assert webp(served.content).size == (side, side)
        # the same picture again: 304, no body, the same headers
        again = fetched(APIClient(), url, if_none_match=f'"{digest}"')
        assert again.status_code == HTTPStatus.NOT_MODIFIED
        assert again.content == b""
        assert (again["ETag"], again["Cache-Control"]) == (served["ETag"], served["Cache-Control"])
    assert len(stored(avatar_folder)) == 2
    # the profile, to anyone (a hidden profile too), and the search rows name the same
    Player.objects.filter(pk=players[0].pk).update(profile_visibility="nobody")
    seen = clients[1].get(f"/api/players/{players[0].pk}").json()
    assert seen["hidden"] is True
    assert (seen["avatar_url"], seen["avatar_small_url"]) == (
        body["avatar_url"],
        body["avatar_small_url"],
    )
    rows = clients[1].get("/api/players", {"search": players[0].display_name}).json()["results"]
    assert [r["avatar_url"] for r in rows] == [body["avatar_url"]]


def test_exif_orientation_is_applied_and_every_metadata_block_is_dropped(
    clients: list[APIClient],
) -> None:
    original = jpeg_with_metadata(orientation=6)  # "rotate 90 degrees clockwise to show"
    assert b"SpyCam" in original
    assert XMP in original

    body = upload(clients[0], original, "image/jpeg").json()

    for key in ("avatar_url", "avatar_small_url"):
        served = fetched(clients[0], body[key]).content
        assert riff_chunks(served) == [b"VP8 "]  # no VP8X: so no EXIF, ICCP or XMP chunk
        for secret in (b"SpyCam", b"secret-tool", b"xmpmeta", b"Exif", b"GPS"):
            assert secret not in served
        picture = webp(served)
        assert not {"exif", "icc_profile", "xmp"} & set(picture.info)
        side = picture.size[0]
        # the left half (red) was the top once turned upright; the right half (blue) the bottom
        red, _g, blue = picture.convert("RGB").getpixel((side // 2, side // 8))
        assert red > 180 > blue
        red, _g, blue = picture.convert("RGB").getpixel((side // 2, side - side // 8))
        assert blue > 180 > red


def test_a_png_with_transparency_keeps_it_and_a_webp_is_taken(clients: list[APIClient]) -> None:
    clear = Image.new("RGBA", (100, 100), (0, 0, 0, 0))
    body = upload(clients[0], encoded(clear)).json()
    assert webp(fetched(clients[0], body["avatar_url"]).content).getpixel((5, 5))[3] == 0

    response = upload(clients[0], encoded(halves(), "WEBP"), "image/webp")
    assert response.status_code == HTTPStatus.OK, response.content


BOMB = png_header_only(30000, 30000)


@pytest.mark.parametrize(
    ("body", "media", "status", "code", "named"),
    [
        (b"\x89PNG" + b"\0" * AVATAR_MAX_BYTES, "image/png", 413, "avatar_too_large", "2,097,152"),
        (png_header_only(4097, 16), "image/png", 413, "avatar_too_many_pixels", "4097 x 16"),
        (png_header_only(16, 5000), "image/png", 413, "avatar_too_many_pixels", "16 x 5000"),
        (BOMB, "image/png", 413, "avatar_too_many_pixels", "4096 x 4096"),
        (encoded(noise((300, 300)))[:60000], "image/png", 400, "avatar_damaged", "truncated"),
        (encoded(noise((300, 300)), "JPEG")[:9000], "image/jpeg", 400, "avatar_damaged", "trunc"),
        (animated("GIF"), "image/gif", 400, "avatar_not_an_image", "a GIF image"),
        (animated("WEBP"), "image/webp", 400, "avatar_animated", "3 frames"),
        (animated("PNG"), "image/png", 400, "avatar_animated", "3 frames"),  # APNG
        (
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "image/svg+xml",
            400,
            "avatar_not_an_image",
            "an SVG document",
        ),
        (b'<?xml version="1.0"?><svg/>', "image/png", 400, "avatar_not_an_image", "SVG"),
        (b"just some text", "image/png", 400, "avatar_not_an_image", "something else"),
        (b"", "image/png", 400, "avatar_not_an_image", "No image was sent"),
    ],
    ids=[
        "bytes",
        "wide",
        "tall",
        "bomb",
        "truncated-png",
        "truncated-jpeg",
        "gif",
        "animated-webp",
        "apng",
        "svg",
        "svg-as-png",
        "text",
        "empty",
    ],
)
def test_each_refusal_names_why_and_writes_nothing(
    clients: list[APIClient],
    players: list[Player],
    avatar_folder: Path,
    body: bytes,
    media: str,
    status: int,
    code: str,
    named: str,
) -> None:
    response = upload(clients[0], body, media)

    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert problem["code"] == code
    assert named in problem["detail"]
    assert stored(avatar_folder) == []
    assert not PlayerAvatar.objects.exists()


def test_a_refused_upload_leaves_the_avatar_there_was(
    clients: list[APIClient], avatar_folder: Path
) -> None:
    before = upload(clients[0], encoded(halves())).json()

    assert upload(clients[0], BOMB).status_code == HTTPStatus.REQUEST_ENTITY_TOO_LARGE

    assert clients[0].get("/api/players/me").status_code == HTTPStatus.OK
    assert fetched(clients[0], before["avatar_url"]).status_code == HTTPStatus.OK
    assert len(stored(avatar_folder)) == 2


def test_a_body_that_is_not_an_image_type_is_refused_as_such(clients: list[APIClient]) -> None:
    response = clients[0].put(AVATAR, data=b"hello", content_type="text/plain")
    assert response.status_code == HTTPStatus.UNSUPPORTED_MEDIA_TYPE


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[..., Any]:
    """``committed(call)``: ``call()``, then what runs once its transactions commit (the
    files' removal), as it runs outside a test's transaction."""

    def run(call: Callable[[], Any]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


def test_replacing_and_deleting_remove_the_files_no_avatar_names(
    clients: list[APIClient], players: list[Player], avatar_folder: Path, committed: Any
) -> None:
    first = upload(clients[0], encoded(halves())).json()
    # grace uploads the same picture: the same files, shared
    assert upload(clients[1], encoded(halves())).json() == first
    second = committed(lambda: upload(clients[0], encoded(noise((64, 64))))).json()
    assert len(stored(avatar_folder)) == 4  # grace's still name the first two

    response = committed(lambda: clients[0].delete(AVATAR))

    assert response.status_code == HTTPStatus.OK
    body = response.json()
    assert body["uploaded"] is False
    assert body["avatar_url"].endswith(".svg")
    assert (
        body["avatar_url"] == clients[1].get(f"/api/players/{players[0].pk}").json()["avatar_url"]
    )
    for url in (second["avatar_url"], second["avatar_small_url"]):
        gone = fetched(APIClient(), url)
        assert gone.status_code == HTTPStatus.NOT_FOUND
        assert gone.json()["code"] == "avatar_not_found"
    assert fetched(APIClient(), first["avatar_url"]).status_code == HTTPStatus.OK
    assert len(stored(avatar_folder)) == 2
    # and again: nothing to remove, the same answer
    assert clients[0].delete(AVATAR).json() == body
    committed(lambda: clients[1].delete(AVATAR))
    assert stored(avatar_folder) == []


def test_deleting_the_account_removes_the_avatar(
    clients: list[APIClient], players: list[Player], avatar_folder: Path, committed: Any
) -> None:
    body = upload(clients[0], encoded(halves())).json()
    players[0].user.set_password("correct horse battery")
    players[0].user.save()

    deleted = committed(
        lambda: clients[0].post(
            "/api/players/me/delete", {"password": "correct horse battery"}, format="json"
        )
    )

    assert deleted.status_code in (HTTPStatus.OK, HTTPStatus.NO_CONTENT), deleted.content
    assert fetched(APIClient(), body["avatar_url"]).status_code == HTTPStatus.NOT_FOUND
    assert stored(avatar_folder) == []


def test_an_address_nobody_uploaded_is_not_found(clients: list[APIClient]) -> None:
    response = APIClient().get(f"/api/avatars/{'0' * 64}.webp")
    assert response.status_code == HTTPStatus.NOT_FOUND
    assert response.json()["code"] == "avatar_not_found"


def test_an_upload_needs_a_token(clients: list[APIClient]) -> None:
    assert upload(APIClient(), encoded(halves())).status_code == HTTPStatus.UNAUTHORIZED


def test_uploads_are_limited_per_player(clients: list[APIClient], settings: Any) -> None:
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "avatar_upload": "2/hour"}
    cache.clear()
    picture = encoded(halves())
    assert [upload(clients[0], picture).status_code for _ in range(3)] == [200, 200, 429]
    assert upload(clients[1], picture).status_code == HTTPStatus.OK  # another player's own
    assert clients[0].delete(AVATAR).status_code == HTTPStatus.OK  # a removal is not limited
