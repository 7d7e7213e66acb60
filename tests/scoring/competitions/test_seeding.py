"""Stage 1 seeded at random from the stored seed, by rating or in the organiser's order, and
entrants kept apart (clubs, named pairs) through the API."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from rest_framework.test import APIClient

from games.models import Player
from scoring.competitions.pairing import stage_rng
from scoring.competitions.seating import seat_at_random
from scoring.models import Competition, Rating
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.scoring.competitions.event_api import API, add, create_event, seated, start

pytestmark = pytest.mark.django_db


def field(client: APIClient, cid: int, count: int, **each: object) -> list[int]:
    return [
        add(client, cid, name=f"Entrant {n}", check_in=True, **each)["player_id"]
        for n in range(count)
    ]


def test_seeded_in_the_organisers_order_table_one_seats_the_top_seeds(
    organiser_client: APIClient,
) -> None:
    # given: eight entrants seeded 8 down to 1 as they came, at tables of 4
    cid = create_event(organiser_client, table_size=4, seeding="order")
    ids = [
        add(organiser_client, cid, name=f"Seed {8 - n}", seed=8 - n, check_in=True)["player_id"]
        for n in range(8)
    ]
    organiser_client.post(f"{API}/{cid}/close")

    start(organiser_client, cid, 1)

    tables = seated(organiser_client, cid, 1)
    by_seed = list(reversed(ids))  # seed 1 first
    assert [sorted(t) for t in tables] == [sorted(by_seed[:4]), sorted(by_seed[4:])]


def test_seeded_by_rating_the_unrated_come_last(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client, table_size=2, play="online", allow_bots=False)
    players = [PlayerFactory(display_name=f"R{n}") for n in range(4)]
    for player in players:
        add(organiser_client, cid, player_id=player.pk)
    # ratings: players[2] best, players[0] next, players[1] and [3] unrated
    for player, ordinal in ((players[2], 10.0), (players[0], 5.0)):
        Rating.objects.create(
            player=player, variant="chickenfoot", mu=ordinal + 3, sigma=1, ordinal=ordinal
        )
    changed = organiser_client.patch(f"{API}/{cid}", {"seeding": "rating"}, format="json")
    assert changed.json()["seeding"] == "rating"
    organiser_client.post(f"{API}/{cid}/close")

    start(organiser_client, cid, 1)

    tables = seated(organiser_client, cid, 1)
    assert sorted(tables[0]) == sorted([players[2].pk, players[0].pk])
    assert sorted(tables[1]) == sorted([players[1].pk, players[3].pk])


def test_at_random_stage_one_is_the_seeds_draw(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client, table_size=4)
    ids = field(organiser_client, cid, 11)
    organiser_client.post(f"{API}/{cid}/close")

    start(organiser_client, cid, 1)

    competition = Competition.objects.get(pk=cid)
    expected = seat_at_random(
        players=ids, table_size=4, fill_with_bots=False, rng=stage_rng(competition, 1)
    )
    assert seated(organiser_client, cid, 1) == expected


def test_entrants_of_one_club_are_kept_apart_at_stage_one(organiser_client: APIClient) -> None:
    # given: 12 entrants of 3 clubs at tables of 3: a seating with one of each exists
    cid = create_event(organiser_client, table_size=3)
    clubs = {}
    for n in range(12):
        entrant = add(organiser_client, cid, name=f"E{n}", club=" River  " if n % 3 == 0 else
                      ("hill" if n % 3 == 1 else "Lake"), check_in=True)  # fmt: skip
        clubs[entrant["player_id"]] = n % 3
    kept = organiser_client.put(
        f"{API}/{cid}/keep-apart", {"clubs": True, "pairs": []}, format="json"
    )
    assert kept.status_code == HTTPStatus.OK, kept.content
    organiser_client.post(f"{API}/{cid}/close")

    start(organiser_client, cid, 1)

    for table in seated(organiser_client, cid, 1):
        assert len({clubs[p] for p in table}) == len(table)


def test_named_pairs_are_kept_apart_and_only_the_organiser_sees_them(
    organiser_client: APIClient,
) -> None:
    cid = create_event(organiser_client, table_size=2)
    ids = field(organiser_client, cid, 4)
    pairs = [[ids[0], ids[1]], [ids[2], ids[3]]]

    put = organiser_client.put(
        f"{API}/{cid}/keep-apart", {"clubs": False, "pairs": pairs}, format="json"
    )
    stranger = client_for(PlayerFactory()).get(f"{API}/{cid}/keep-apart")
    organiser_client.post(f"{API}/{cid}/close")
    start(organiser_client, cid, 1)

    assert put.json() == {"clubs": False, "pairs": sorted(pairs)}
    assert organiser_client.get(f"{API}/{cid}/keep-apart").json()["pairs"] == sorted(pairs)
    assert stranger.status_code == HTTPStatus.FORBIDDEN
    for table in seated(organiser_client, cid, 1):
        assert sorted(table) not in sorted(pairs)


def test_bad_pairs_are_named_each_and_nothing_changes(organiser_client: APIClient) -> None:
    cid = create_event(organiser_client)
    ids = field(organiser_client, cid, 2)
    organiser_client.put(f"{API}/{cid}/keep-apart", {"clubs": True, "pairs": [ids]}, format="json")
    outsider = Player.objects.create(kind=Player.Kind.GUEST, display_name="Nobody")

    response = organiser_client.put(
        f"{API}/{cid}/keep-apart",
        {"clubs": False, "pairs": [[ids[0], ids[0]], [ids[0], outsider.pk], [1, 2, 3]]},
        format="json",
    )

    assert response.status_code == HTTPStatus.BAD_REQUEST
    assert set(response.json()["errors"]) == {"pairs.2"}  # its shape first
    assert organiser_client.get(f"{API}/{cid}/keep-apart").json() == {
        "clubs": True,
        "pairs": [sorted(ids)],
    }
    each = organiser_client.put(
        f"{API}/{cid}/keep-apart",
        {"clubs": False, "pairs": [[ids[0], ids[0]], [ids[0], outsider.pk]]},
        format="json",
    )
    assert set(each.json()["errors"]) == {"pairs.0", "pairs.1"}
