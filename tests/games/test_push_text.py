"""A push speaks: each Web Push, decrypted by the test's own push service on loopback
(tests/games/push_service.py, RFC 8291), carries a title and a body in the recipient's language
for every kind, names as the literal text they were written, the ids to open the match with,
within 4 KB whatever the names; a ``your_turn`` goes out under one ``Topic`` per match; the inbox
lists the same title and body (what no push may carry: tests/games/test_leaks.py)."""

from __future__ import annotations

import re
import time
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Match, Player
from games.notifications import kinds
from games.notifications.models import KINDS
from games.notifications.services import notify
from games.notifications.text import BODY_CHARS, ELLIPSIS, TITLE_CHARS, clip
from games.notifications.webpush import PAYLOAD_MAX
from games.services import SeatSpec, match_create, seat_join
from scoring.competition_models import Stage
from scoring.models import CompetitionMatch
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.push_service import PushService, Received
from tests.scoring.competitions.conftest import make_competition

pytestmark = pytest.mark.django_db(transaction=True)  # pushes go after commit, as they would

LANGUAGES = ("en", "lo", "th", "hy", "ceb")
#: What grace (seat 1) reads in English of a match with ada (seat 0) and two bots.
ENGLISH = {
    "your_turn": ("Chicken Foot: your turn", "Your turn against Ada and 2 bots"),
    "invited": ("Chicken Foot: an invitation", "Ada invited you to Chicken Foot"),
    "match_started": (
        "Chicken Foot: your match started",
        "Your match against Ada and 2 bots started",
    ),
    "match_over": ("Chicken Foot: match finished", "Your match against Ada and 2 bots is finished"),
    "table_assigned": ("Spring open: stage 1", "You are seated at table 2 against Ada and 2 bots"),
    "round_disputed": ("Chicken Foot: round 2 disputed", "Ada disputed the scores of round 2"),
    "result_corrected": (
        "Chicken Foot: round 2 corrected",
        "The scores of round 2 against Ada and 2 bots were corrected",
    ),
    "friend_request": ("A friend request", "Ada wants to be your friend"),
    "friend_accepted": ("A new friend", "Ada accepted your friend request"),
}


def with_bots(ada: Player, grace: Player) -> Match:
    """An open match: ada (seat 0), grace (seat 1) and two bots."""
    seats = [SeatSpec("creator"), SeatSpec("open"), SeatSpec("bot", 1), SeatSpec("bot", 3)]
    match = match_create(creator=ada, variant="chickenfoot", seats=seats)
    seat_join(match_id=match.pk, player=grace, position=1)
    return match


def every_kind(match: Match, ada: Player) -> dict[str, dict[str, Any]]:
    """A payload of each kind about ``match`` (table 2 of a tournament's stage 1)."""
    olga = PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)
    tournament = make_competition(olga, name="Spring open")
    stage = Stage.objects.create(competition=tournament, number=1, started_at=timezone.now())
    CompetitionMatch.objects.create(
        competition=tournament, match=match, stage=stage, table_number=2
    )
    return {
        "your_turn": kinds.your_turn(match_id=match.pk, seat=1),
        "invited": kinds.invited(match_id=match.pk, by_player_id=ada.pk),
        "match_started": kinds.match_started(match_id=match.pk),
        "match_over": kinds.match_over(match_id=match.pk),
        "table_assigned": kinds.table_assigned(match_id=match.pk),
        "round_disputed": kinds.round_disputed(match_id=match.pk, round_number=2, seat=0),
        "result_corrected": kinds.result_corrected(match_id=match.pk, round_number=2),
        "friend_request": kinds.friend_request(request_id=12, by_player_id=ada.pk),
        "friend_accepted": kinds.friend_accepted(request_id=12, by_player_id=ada.pk),
    }


def subscribe(client: APIClient, service: PushService, name: str = "device-1") -> None:
    answer = client.post("/api/push/devices", service.subscription(name), format="json")
    assert answer.status_code == HTTPStatus.CREATED, answer.content


def pushed(service: PushService, ids: set[int], seconds: float = 20) -> dict[int, Received]:
    """The pushes of notifications ``ids``, once all have come."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert not service.errors, service.errors
        got = {r.message["id"]: r for r in list(service.received) if r.message["id"] in ids}
        if set(got) == ids:
            return got
        time.sleep(0.05)
    raise AssertionError(f"pushed {sorted(got)} of {sorted(ids)}")


def test_every_kind_speaks_the_recipients_language_and_the_inbox_says_the_same(
    service: PushService, players: list[Player]
) -> None:
    # given: grace's browser subscribed; a match of ada, grace and two bots, at a tournament table
    ada, grace = players[:2]
    grace_client = client_for(grace)
    subscribe(grace_client, service)
    match = with_bots(ada, grace)
    payloads = every_kind(match, ada)
    said: dict[str, dict[str, tuple[str, str]]] = {}

    for language in LANGUAGES:
        # when: grace, reading in ``language``, is told of every kind
        chosen = grace_client.patch("/api/players/me", {"language": language}, format="json")
        assert chosen.status_code == HTTPStatus.OK
        rows = {
            kind: notify(player_id=grace.pk, kind=kind, payload=payload, key=f"{kind}:{language}")
            for kind, payload in payloads.items()
        }
        got = pushed(service, {row.pk for row in rows.values()})

        # then: each push carries its title and body, the envelope and the ids to open it
        said[language] = {}
        for kind, row in rows.items():
            message = got[row.pk].message
            assert set(message) == {"id", "kind", "payload", "created_at", "read", "title", "body"}
            assert (message["kind"], message["payload"]) == (kind, payloads[kind])
            assert message["payload"].get("match_id", match.pk) == match.pk
            said[language][kind] = (message["title"], message["body"])
            if kind not in ("invited", "round_disputed"):
                assert "Ada" in message["body"]
        # and: the inbox, read in her language, lists the same title and body
        listed = grace_client.get("/api/notifications?page_size=100").json()["results"]
        by_id = {item["id"]: item for item in listed}
        for kind, row in rows.items():
            assert (by_id[row.pk]["title"], by_id[row.pk]["body"]) == said[language][kind]

    assert said["en"] == ENGLISH
    for language in LANGUAGES[1:]:  # every line translated, none left in English
        for kind in KINDS:
            title, body = said[language][kind]
            assert title != ENGLISH[kind][0], (language, kind)
            assert body != ENGLISH[kind][1], (language, kind)
            assert title.strip()
            assert body.strip()


@pytest.mark.parametrize("name", STORABLE)
def test_a_hostile_name_arrives_as_the_literal_text(
    name: str, service: PushService, players: list[Player]
) -> None:
    ada, grace = players[:2]
    Player.objects.filter(pk=ada.pk).update(display_name=name)
    subscribe(client_for(grace), service)
    match = with_bots(ada, grace)

    turn = notify(
        player_id=grace.pk, kind="your_turn", payload=kinds.your_turn(match_id=match.pk, seat=1)
    )
    invited = notify(
        player_id=grace.pk,
        kind="invited",
        payload=kinds.invited(match_id=match.pk, by_player_id=ada.pk),
    )
    got = pushed(service, {turn.pk, invited.pk})

    assert got[turn.pk].message["body"] == f"Your turn against {name} and 2 bots"
    assert got[invited.pk].message["body"] == f"{name} invited you to Chicken Foot"


#: Names of 64 characters (the most a display name holds) that weigh most as JSON: 4-byte
#: characters, controls JSON escapes in 6 bytes, combining marks, skin-toned and joined emoji.
LONGEST = (
    "\U0001d56c" * 64,
    "\x07" * 64,
    "e\u0301" * 32,
    "\U0001f44d\U0001f3fd" * 32,
    "\U0001f469\u200d\U0001f469\u200d\U0001f467" * 12 + "abcd",
)


def test_the_longest_names_keep_a_push_within_4_kb_cut_between_characters(
    service: PushService, players: list[Player]
) -> None:
    # given: an 8-seat match of grace and seven players with the heaviest longest names
    grace = players[1]
    others = [
        PlayerFactory(user__username=f"long{i}", display_name=LONGEST[i % len(LONGEST)])
        for i in range(7)
    ]
    match = match_create(
        creator=others[0],
        variant="chickenfoot",
        seats=[SeatSpec("creator")] + [SeatSpec("open")] * 7,
    )
    for position, player in enumerate([grace, *others[1:]], start=1):
        seat_join(match_id=match.pk, player=player, position=position)
    olga = PlayerFactory(user__username="olga", display_name="Olga", is_organiser=True)
    tournament = make_competition(olga, name="\U0001d56c" * 100)
    CompetitionMatch.objects.create(competition=tournament, match=match, table_number=1)
    subscribe(client_for(grace), service)

    # when: she is told of every kind
    rows = [
        notify(player_id=grace.pk, kind=kind, payload=payload, key=kind)
        for kind, payload in {
            "your_turn": kinds.your_turn(match_id=match.pk, seat=1),
            "invited": kinds.invited(match_id=match.pk, by_player_id=others[1].pk),
            "table_assigned": kinds.table_assigned(match_id=match.pk),
            "round_disputed": kinds.round_disputed(match_id=match.pk, round_number=1, seat=2),
        }.items()
    ]
    got = pushed(service, {row.pk for row in rows})

    # then: each is within the 4 KB a push service takes, its text clipped where it may be
    for push in got.values():
        assert push.plain_size <= PAYLOAD_MAX
        assert int(push.headers["content-length"]) <= 4096
        title, body = push.message["title"], push.message["body"]
        assert len(title) <= TITLE_CHARS
        assert len(body) <= BODY_CHARS
    body = got[rows[0].pk].message["body"]
    assert body.endswith(ELLIPSIS)
    assert body.startswith("Your turn against ")


def test_a_cut_never_leaves_a_mark_or_joiner_without_its_character() -> None:
    assert clip("Ada", 3) == "Ada"
    assert clip("abcdef", 4) == "abc" + ELLIPSIS
    assert clip("ab" + "e\u0301" * 5, 4) == "ab" + ELLIPSIS  # not "abe" with its accent lost
    assert clip("a\U0001f44d\U0001f3fd" + "x" * 9, 3) == "a" + ELLIPSIS  # the tone stays on
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert clip("ab" + family, 5) == "ab" + ELLIPSIS  # no dangling joiner
    for limit in range(1, 20):
        cut = clip(family * 4, limit)
        assert not cut[:-1].endswith("\u200d")
        assert len(cut) <= limit


def test_a_your_turn_goes_out_under_one_topic_per_match_and_the_others_under_none(
    service: PushService, players: list[Player]
) -> None:
    ada, grace = players[:2]
    subscribe(client_for(grace), service)
    match = with_bots(ada, grace)

    first = notify(
        player_id=grace.pk,
        kind="your_turn",
        payload=kinds.your_turn(match_id=match.pk, seat=1),
        key="t1",
    )
    second = notify(
        player_id=grace.pk,
        kind="your_turn",
        payload=kinds.your_turn(match_id=match.pk, seat=1),
        key="t2",
    )
    over = notify(
        player_id=grace.pk, kind="match_over", payload=kinds.match_over(match_id=match.pk)
    )
    got = pushed(service, {first.pk, second.pk, over.pk})

    topics = {got[row.pk].headers.get("topic") for row in (first, second)}
    assert topics == {f"your-turn-{match.pk}"}  # the second replaces the first on the device
    (topic,) = topics
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,32}", topic)  # RFC 8030: base64url, 32 at most
    assert "topic" not in got[over.pk].headers
