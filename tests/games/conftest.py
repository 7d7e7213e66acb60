"""Fixtures for the games tests: players with tokens, clients acting as them, started matches."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications.vapid_keys import vapid_key_pair
from games.services import SeatSpec, match_create, match_start, seat_join
from tests.games.factories import PlayerFactory, token_for
from tests.games.push_service import PushService
from tests.games.resolver import names  # noqa: F401  (names under .test, as a test sets them)

#: A match seed whose first deal gives the first seat to move a play (tests rely on it).
FIXED_SEED = "ab" * 32


def client_for(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(player)}")
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Hash test passwords cheaply (the real hasher costs ~0.3 s a user)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def players(db: None) -> list[Player]:
    return [
        PlayerFactory(user__username=name, display_name=name.title())
        for name in ("ada", "grace", "alan", "edsger")
    ]


@pytest.fixture
def clients(players: list[Player]) -> list[APIClient]:
    return [client_for(p) for p in players]


@pytest.fixture
def started_match(players: list[Player]) -> Callable[..., Match]:
    """Start a human-only match of ``n`` of the players (seat i = players[i])."""

    def make(
        variant: str = "chickenfoot",
        n: int = 3,
        options: dict[str, Any] | None = None,
        seed: str = FIXED_SEED,
    ) -> Match:
        specs = [SeatSpec(kind="creator")] + [SeatSpec(kind="open")] * (n - 1)
        match = match_create(creator=players[0], variant=variant, seats=specs, options=options)
        Match.objects.filter(pk=match.pk).update(seed=seed)  # the same deal on every run
        for i in range(1, n):
            seat_join(match_id=match.pk, player=players[i], position=i)
        match_start(match_id=match.pk, player=players[0])
        match.refresh_from_db()
        return match

    return make


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    """A Web Push service of the test's own on loopback (tests/games/push_service.py), the
    server's VAPID keys set (a worker's come from its environment)."""
    if not settings.VAPID_PRIVATE_KEY:
        if os.environ.get("CELERY_WORKER_EXPECTED") == "1":
            pytest.fail("The worker sends the pushes: export VAPID keys to it (.ci/run does).")
        settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = vapid_key_pair()
    settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
    push = PushService(vapid_public_key=settings.VAPID_PUBLIC_KEY)
    push.start()
    yield push
    push.stop()


@pytest.fixture
def avatar_folder(settings: Any, tmp_path: Path) -> Path:
    """The avatars' storage: a folder of the test's own."""
    folder = tmp_path / "avatars"
    settings.STORAGES = {
        **settings.STORAGES,
        "avatars": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": folder, "allow_overwrite": True},
        },
    }
    return folder
