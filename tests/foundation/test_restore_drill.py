"""The restore drill (docs/operations.md, "Backups and restore"), on PostgreSQL.

Finished online matches, a whole tournament and a table match with its scores are in the
database; a backup is taken while another thread applies moves to a match still in play; the
backup is restored into a fresh database. There, ``verify_match`` passes (the finished matches
and the one in play, whatever move the snapshot caught it at), the finished matches' rows are
those of the original, and the standings and ratings read from it are the original's.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Match, Player
from tests.foundation.live_server import PYTHON, ROOT
from tests.games.conftest import FIXED_SEED, client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end, play_turn
from tests.games.test_table_matches import enter
from tests.scoring.competitions.test_tournament import run_tournament

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="pg_dump's consistent snapshot needs PostgreSQL (CI runs this); "
        "tests/foundation/test_backups.py is the SQLite round trip",
    ),
    pytest.mark.django_db(transaction=True),
]

#: Read in a process of its own, on the database DATABASE_URL names: what people see.
STANDINGS_AND_RATINGS = """
import json
from scoring.competitions.standings import standings
from scoring.models import Competition, Rating
print(json.dumps({
    "standings": {c.pk: standings(competition=c) for c in Competition.objects.order_by("pk")},
    "ratings": list(Rating.objects.order_by("player_id", "variant").values()),
}, default=str, sort_keys=True))
"""


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def database_url(name: str) -> str:
    db: dict[str, Any] = connection.settings_dict
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{name}"


def manage(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``manage.py <args>`` on ``database``."""
    return run(database, PYTHON, "manage.py", *args)


def make(database: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``DATABASE_URL=<database's> make <args>``, as docs/operations.md shows it."""
    return run(database, "make", *args)


def run(database: str, *command: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("REDIS_URL", "PYTEST_ADDOPTS", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")
    }
    return subprocess.run(  # noqa: S603 - make or our own interpreter
        list(command),
        cwd=ROOT,
        env=env | {"DATABASE_URL": database_url(database), "DB_CONN_MAX_AGE": "0"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def fresh_database() -> Iterator[str]:
    """An empty database of this test's own, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored_{os.getpid()}"
    admin = database_url("postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def rows(database: str, query: str, ids: list[int]) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url(database)) as conn:
        return conn.execute(query, {"ids": ids}).fetchall()


#: The finished matches' own rows and what scoring keeps of finished matches (none finishes
#: meanwhile: the match in play has rounds enough left).
FINISHED_ROWS = {
    "games_match": "SELECT * FROM games_match WHERE id = ANY(%(ids)s) ORDER BY id",
    "games_seat": "SELECT * FROM games_seat WHERE match_id = ANY(%(ids)s) ORDER BY id",
    "games_round": "SELECT * FROM games_round WHERE match_id = ANY(%(ids)s) ORDER BY id",
    "games_move": "SELECT * FROM games_move WHERE match_id = ANY(%(ids)s) ORDER BY id",
    # Round results are written as each round ends: the match in play may have ended one since.
    "scoring_roundresult": "SELECT * FROM scoring_roundresult WHERE match_id = ANY(%(ids)s) "
    "ORDER BY id",
    **{
        table: f"SELECT * FROM {table} ORDER BY 1"  # noqa: S608 - our own table names
        for table in (
            "scoring_matchresult",
            "scoring_matchfinalisation",
            "scoring_rating",
            "scoring_ratingchange",
            "scoring_competition",
            "scoring_registration",
            "scoring_stage",
            "scoring_competitionmatch",
            "scoring_competitionresult",
            "scoring_competitiontotal",
        )
    },
}


def seed_finished(players: list[Player], clients: list[APIClient]) -> None:
    """Two online matches played to the end, a table match scored, a whole tournament."""
    for number, (variant, max_pip) in enumerate((("chickenfoot", 6), ("mexican_train", 9))):
        match = start(players[:3], variant, options={"max_pip": max_pip, "rounds": 2})
        play_to_end(clients[:3], match.pk, seed=number)
    table = clients[0].post(
        "/api/matches",
        {
            "variant": "chickenfoot",
            "play": "table",
            "seats": [{"kind": "creator"}, {"kind": "player", "username": "grace"}],
            "options": {"max_pip": 6, "rounds": 2},
        },
        format="json",
    )
    assert table.status_code == 201, table.content
    assert enter(clients[0], table.json()["id"], 1, [0, 12], version=0).status_code == 201
    assert enter(clients[0], table.json()["id"], 2, [8, 0], version=1).status_code == 201
    organiser = PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)
    run_tournament(client_for(organiser))


def start(players: list[Player], variant: str, options: dict[str, Any] | None = None) -> Match:
    from games.services import SeatSpec, match_create, match_start, seat_join

    specs = [SeatSpec(kind="creator")] + [SeatSpec(kind="open")] * (len(players) - 1)
    match = match_create(creator=players[0], variant=variant, seats=specs, options=options)
    Match.objects.filter(pk=match.pk).update(seed=FIXED_SEED)
    for position, player in enumerate(players[1:], start=1):
        seat_join(match_id=match.pk, player=player, position=position)
    match_start(match_id=match.pk, player=players[0])
    return match


class MovesMeanwhile(threading.Thread):
    """Plays moves of one match until told to stop, and never into its last round (so that
    the match does not finish, which would change ratings after the snapshot)."""

    def __init__(self, clients: list[APIClient], match_id: int) -> None:
        super().__init__(daemon=True)
        self.clients, self.match_id = clients, match_id
        self.played = 0
        self.started_playing = threading.Event()
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def last_round(self) -> bool:
        match = Match.objects.select_related("current_round").get(pk=self.match_id)
        return match.current_round.number >= match.options["rounds"]

    def run(self) -> None:
        rng = random.Random(3)
        try:
            while not self.stop.is_set() and not self.last_round():
                if play_turn(self.clients, self.match_id, rng) is None:
                    break
                self.played += 1
                if self.played == 3:
                    self.started_playing.set()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.error = error
        finally:
            self.started_playing.set()
            connection.close()


def test_a_backup_taken_during_play_restores_into_a_database_that_verifies(
    tmp_path: Path, fresh_database: str
) -> None:
    # given: finished matches, a tournament, a table match, and a long match in play
    players = [PlayerFactory(user__username=n) for n in ("ada", "grace", "alan", "edsger")]
    clients = [client_for(p) for p in players]
    seed_finished(players, clients)
    playing = start(players, "chickenfoot", options={"max_pip": 9, "rounds": 10})
    finished = list(Match.objects.filter(status=Match.Status.FINISHED).values_list("pk", flat=True))
    assert len(finished) >= 8  # two online, one at a table, the tournament's tables
    original = connection.settings_dict["NAME"]

    # when: a backup is taken while another thread applies moves, then restored elsewhere
    mover = MovesMeanwhile(clients, playing.pk)
    mover.start()
    mover.started_playing.wait(timeout=120)
    dump = tmp_path / "drill.dump"
    backup = make(original, "backup", f"FILE={dump}")
    played_at_backup = mover.played
    mover.stop.set()
    mover.join(timeout=120)
    assert mover.error is None, mover.error
    assert backup.returncode == 0, backup.stderr
    restore = make(fresh_database, "restore", f"FILE={dump}")
    assert restore.returncode == 0, restore.stderr

    # then: every finished match and the one in play replay as stored in the restored database
    verified = make(fresh_database, "verify-all")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.count(": ok (") == len(finished) - 1  # the table match is skipped
    in_play = manage(fresh_database, "verify_match", str(playing.pk))
    assert in_play.returncode == 0, in_play.stdout + in_play.stderr
    assert played_at_backup >= 3
    playing.refresh_from_db()
    assert playing.status == Match.Status.PLAYING

    # and: the finished matches' rows, the standings and the ratings are the original's
    for table, query in FINISHED_ROWS.items():
        assert rows(fresh_database, query, finished) == rows(original, query, finished), table
    read = [
        manage(name, "shell", "-c", STANDINGS_AND_RATINGS) for name in (fresh_database, original)
    ]
    assert all(r.returncode == 0 for r in read), [r.stderr for r in read]
    restored_view, original_view = (json.loads(r.stdout.strip().splitlines()[-1]) for r in read)
    assert restored_view == original_view
    assert restored_view["ratings"]
    assert restored_view["standings"]
