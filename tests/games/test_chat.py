"""Quick chat over HTTP: saying a phrase, reading the chat in one's own language, who may,
how often, muting it, after the end, and the record (docs/api.md, "Quick chat")."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import Any

import pytest
from django.utils import timezone, translation
from rest_framework.test import APIClient

from chickenfoot.throttles import ScopedThrottle
from games.chat import reading
from games.chat.access import OPEN_AFTER_END
from games.chat.models import ChatMessage, ChatMute
from games.chat.phrases import PHRASE_IDS, PHRASES
from games.models import Match, Player
from tests.caches import cache_of_own
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.helpers import play_to_end

pytestmark = pytest.mark.django_db

LANGUAGES = ("lo", "th", "hy", "ceb")


def say(client: APIClient, match_id: int, phrase: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/chat", {"phrase": phrase}, format="json")


def in_language(language: str, text: Any) -> str:
    with translation.override(language):
        return translation.gettext(str(text)) if isinstance(text, str) else str(text)


def texts(client: APIClient, match_id: int) -> list[tuple[str, str]]:
    body = client.get(f"/api/matches/{match_id}/chat").json()
    return [(m["phrase"], m["text"]) for m in body["messages"]]


@pytest.fixture
def match(started_match: Callable[..., Match]) -> Match:
    return started_match()


def test_a_phrase_said_is_read_by_every_seat_in_their_own_language(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    # given: Grace reads Thai, Alan Armenian, Ada her browser's default (English)
    Player.objects.filter(pk=players[1].pk).update(language="th")
    Player.objects.filter(pk=players[2].pk).update(language="hy")

    # when
    said = say(clients[0], match.pk, "good_game")

    # then
    assert said.status_code == HTTPStatus.CREATED, said.content
    assert said.json() | {"sent_at": None} == {
        "seq": 1,
        "seat": 0,
        "player_id": players[0].pk,
        "phrase": "good_game",
        "kind": "phrase",
        "emoji": "🤝",
        "text": "Good game!",
        "sent_at": None,
    }
    assert texts(clients[1], match.pk) == [("good_game", in_language("th", "Good game!"))]
    assert texts(clients[2], match.pk) == [("good_game", in_language("hy", "Good game!"))]
    assert in_language("th", "Good game!") != "Good game!" != in_language("hy", "Good game!")


def test_every_phrase_has_an_emoji_and_a_text_in_every_language() -> None:
    assert len(set(PHRASE_IDS)) == len(PHRASES) >= 6
    assert {"hello", "good_game", "well_played", "oops", "thinking", "thanks"} <= set(PHRASE_IDS)
    for phrase in PHRASES:
        assert phrase.emoji
        english = in_language("en", phrase.text)
        for language in LANGUAGES:
            with translation.override(language):
                assert str(phrase.text) not in ("", english), (phrase.id, language)


def test_the_phrase_list_is_served_in_the_callers_language(
    players: list[Player], clients: list[APIClient]
) -> None:
    Player.objects.filter(pk=players[1].pk).update(language="lo")
    listed = clients[1].get("/api/chat/phrases")
    assert listed.status_code == HTTPStatus.OK
    assert [p["id"] for p in listed.json()] == list(PHRASE_IDS)
    thinking = next(p for p in listed.json() if p["id"] == "thinking")
    assert thinking == {
        "id": "thinking",
        "kind": "phrase",
        "emoji": "🤔",
        "text": in_language("lo", "Thinking…"),
    }


def test_a_chat_moves_neither_the_version_nor_the_move_seq(
    clients: list[APIClient], match: Match
) -> None:
    before = clients[0].get(f"/api/matches/{match.pk}")
    assert say(clients[1], match.pk, "hello").status_code == HTTPStatus.CREATED
    again = clients[0].get(f"/api/matches/{match.pk}", HTTP_IF_NONE_MATCH=before.headers["ETag"])
    assert again.status_code == HTTPStatus.NOT_MODIFIED
    match.refresh_from_db()
    assert (match.version, match.moves_played) == (before.json()["version"], 0)


@pytest.mark.parametrize("phrase", ["shout", "", "Good game!", 5, None, ["good_game"]])
def test_an_unknown_phrase_is_a_400_naming_the_field_and_the_list(
    clients: list[APIClient], match: Match, phrase: Any
) -> None:
    refused = say(clients[0], match.pk, phrase)
    assert refused.status_code == HTTPStatus.BAD_REQUEST, refused.content
    problem = refused.json()
    assert problem["code"] == "invalid"
    assert list(problem["errors"]) == ["phrase"]
    if isinstance(phrase, str) and phrase:
        assert problem["errors"]["phrase"] == [
            f'"{phrase}" is not a phrase: send one of {", ".join(PHRASE_IDS)}.'
        ]
    assert not ChatMessage.objects.exists()


def test_free_text_and_unknown_fields_are_refused(clients: list[APIClient], match: Match) -> None:
    refused = clients[0].post(
        f"/api/matches/{match.pk}/chat", {"phrase": "hello", "text": "hi"}, format="json"
    )
    assert refused.status_code == HTTPStatus.BAD_REQUEST
    assert list(refused.json()["errors"]) == ["text"]
    assert not ChatMessage.objects.exists()


def test_the_schema_lists_the_phrases_as_an_enum(client: Any) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    body = schema["paths"]["/api/matches/{match_id}/chat"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    phrase = schema["components"]["schemas"][ref]["properties"]["phrase"]
    enum_ref = phrase["allOf"][0]["$ref"].rsplit("/", 1)[1]
    enum = schema["components"]["schemas"][enum_ref]["enum"]
    assert enum == list(PHRASE_IDS)
    responses = schema["paths"]["/api/matches/{match_id}/chat"]["post"]["responses"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(responses)
    assert "Retry-After" in responses["429"]["headers"]


def test_only_seated_players_chat_or_read_it(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    # given: Edsger has no seat; an organiser watches without one
    organiser = PlayerFactory(display_name="Org", is_organiser=True)
    for outsider in (clients[3], client_for(organiser)):
        for answer in (
            say(outsider, match.pk, "hello"),
            outsider.get(f"/api/matches/{match.pk}/chat"),
            outsider.post(f"/api/matches/{match.pk}/chat/mute"),
        ):
            assert answer.status_code == HTTPStatus.FORBIDDEN, answer.content
            assert answer.json()["code"] == "not_your_match"
    # a bad body tells an outsider nothing more
    assert say(clients[3], match.pk, "shout").status_code == HTTPStatus.FORBIDDEN
    assert say(clients[0], 999999, "hello").json()["code"] == "match_not_found"
    assert not ChatMessage.objects.exists()
    assert not ChatMute.objects.exists()


def test_seats_chat_in_the_lobby(players: list[Player], clients: list[APIClient]) -> None:
    created = clients[0].post(
        "/api/matches",
        {"variant": "chickenfoot", "seats": [{"kind": "creator"}, {"kind": "open"}]},
        format="json",
    )
    match_id = created.json()["id"]
    assert say(clients[0], match_id, "hello").status_code == HTTPStatus.CREATED
    assert say(clients[1], match_id, "hello").status_code == HTTPStatus.FORBIDDEN  # not seated
    clients[1].post(f"/api/matches/{match_id}/join", {}, format="json")
    assert texts(clients[1], match_id) == [("hello", "Hello!")]


def test_five_phrases_in_ten_seconds_then_429_with_retry_after(
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
    clients: list[APIClient],
    match: Match,
    started_match: Callable[..., Match],
) -> None:
    # given: the default limit, counted in a cache of this test's own, 3 seconds into a window
    # of 10 (the clock held there)
    settings.CACHES = cache_of_own("locmem", f"test-chat-{uuid.uuid4().hex}")
    settings.THROTTLE_RATES = {"chat": "5/10s"}
    monkeypatch.setattr(ScopedThrottle, "timer", staticmethod(lambda: 1003.0))
    # (a count lives 11 s of real time: the first request of a process, slow, is not counted)
    assert clients[0].get(f"/api/matches/{match.pk}/chat").status_code == HTTPStatus.OK
    for _ in range(5):
        assert say(clients[0], match.pk, "oops").status_code == HTTPStatus.CREATED

    # when
    refused = say(clients[0], match.pk, "oops")

    # then
    assert refused.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert refused.json()["code"] == "throttled"
    assert refused.headers["Retry-After"] == "7"
    assert ChatMessage.objects.filter(match=match).count() == 5
    # another seat, another match: counted apart; reading is not limited
    assert say(clients[1], match.pk, "oops").status_code == HTTPStatus.CREATED
    other = started_match()
    assert say(clients[0], other.pk, "oops").status_code == HTTPStatus.CREATED
    assert clients[0].get(f"/api/matches/{match.pk}/chat").status_code == HTTPStatus.OK


def test_a_muted_chat_shows_the_player_their_own_phrases_only(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    say(clients[1], match.pk, "hello")
    muted = clients[0].post(f"/api/matches/{match.pk}/chat/mute")
    assert (muted.status_code, muted.json()) == (HTTPStatus.OK, {"muted": True})
    assert clients[0].post(f"/api/matches/{match.pk}/chat/mute").json() == {"muted": True}
    say(clients[0], match.pk, "thanks")
    say(clients[2], match.pk, "oops")

    body = clients[0].get(f"/api/matches/{match.pk}/chat").json()
    assert body["muted"] is True
    assert [m["phrase"] for m in body["messages"]] == ["thanks"]
    assert body["last_seq"] == 3
    # the others are not muted, nor told
    assert [p for p, _ in texts(clients[1], match.pk)] == ["hello", "thanks", "oops"]

    unmuted = clients[0].delete(f"/api/matches/{match.pk}/chat/mute")
    assert unmuted.json() == {"muted": False}
    assert clients[0].delete(f"/api/matches/{match.pk}/chat/mute").json() == {"muted": False}
    assert [p for p, _ in texts(clients[0], match.pk)] == ["hello", "thanks", "oops"]


def test_reading_on_after_a_seq(clients: list[APIClient], match: Match) -> None:
    for phrase in ("hello", "good_luck", "thinking"):
        say(clients[0], match.pk, phrase)
    body = clients[1].get(f"/api/matches/{match.pk}/chat?after=1").json()
    assert [m["seq"] for m in body["messages"]] == [2, 3]
    assert body["last_seq"] == 3
    assert clients[1].get(f"/api/matches/{match.pk}/chat?after=3").json()["messages"] == []
    bad = clients[1].get(f"/api/matches/{match.pk}/chat?after=x")
    assert bad.status_code == HTTPStatus.BAD_REQUEST
    assert list(bad.json()["errors"]) == ["after"]


def test_a_blocked_players_phrases_are_left_out_everywhere_the_blocker_reads(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    # given: Ada blocks Grace, both seated at one match
    assert clients[0].post(f"/api/players/{players[1].pk}/block").status_code == 201
    say(clients[1], match.pk, "oops")
    say(clients[2], match.pk, "hello")

    # then: Ada reads no phrase of Grace's; Grace and the third seat read both
    assert reading.hidden_senders(players[0]) == {players[1].pk}
    assert [p for p, _ in texts(clients[0], match.pk)] == ["hello"]
    assert [p for p, _ in texts(clients[1], match.pk)] == ["oops", "hello"]
    assert [p for p, _ in texts(clients[2], match.pk)] == ["oops", "hello"]
    shown = reading.chat_read(match_id=match.pk, viewer=players[0])
    assert [m["phrase"] for m in shown.messages] == ["hello"]

    # and: unblocking shows Grace's phrases again
    assert clients[0].delete(f"/api/players/{players[1].pk}/block").status_code in (200, 204)
    assert [p for p, _ in texts(clients[0], match.pk)] == ["oops", "hello"]


def test_hidden_senders_hides_nobody_without_blocks(players: list[Player]) -> None:
    assert reading.hidden_senders(players[0]) == set()


def test_good_game_after_the_end_then_the_chat_closes(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    # given: Alan reads Cebuano; the match played to its end
    Player.objects.filter(pk=players[2].pk).update(language="ceb")
    play_to_end(clients[:3], match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    # then: "good game" is still welcome
    assert say(clients[1], match.pk, "good_game").status_code == HTTPStatus.CREATED

    # and the record keeps it, for the seats, in each reader's language
    record = clients[2].get(f"/api/matches/{match.pk}/record").json()
    assert [(m["seat"], m["phrase"], m["text"]) for m in record["chat"]] == [
        (1, "good_game", in_language("ceb", "Good game!"))
    ]
    # a reader without a seat (a finished match's record is public) gets no chat
    assert clients[3].get(f"/api/matches/{match.pk}/record").json()["chat"] is None

    # when: the end is further back than the chat stays open
    Match.objects.filter(pk=match.pk).update(
        finished_at=timezone.now() - OPEN_AFTER_END - timedelta(seconds=1)
    )
    closed = say(clients[0], match.pk, "good_game")

    # then
    assert closed.status_code == HTTPStatus.CONFLICT
    assert closed.json()["code"] == "chat_closed"
    assert ChatMessage.objects.filter(match=match).count() == 1
    assert clients[0].get(f"/api/matches/{match.pk}/chat").status_code == HTTPStatus.OK


def test_the_docs_list_every_phrase_as_the_code_has_it() -> None:
    from pathlib import Path

    api = (Path(__file__).parents[2] / "docs" / "api.md").read_text(encoding="utf-8")
    section = api.split("## Quick chat", 1)[1].split("\n## ", 1)[0]
    rows = [
        [cell.strip().strip("`") for cell in line.strip("|").split("|")]
        for line in section.splitlines()
        if line.startswith("| `")
    ]
    assert rows == [[p.id, p.kind, p.emoji, in_language("en", p.text)] for p in PHRASES]


def test_the_export_holds_the_phrases_the_player_said_and_the_chats_they_muted(
    players: list[Player], clients: list[APIClient], match: Match
) -> None:
    say(clients[0], match.pk, "hello")
    say(clients[1], match.pk, "oops")
    clients[0].post(f"/api/matches/{match.pk}/chat/mute")

    data = clients[0].get("/api/players/me/export").json()

    assert [(c["match_id"], c["seq"], c["seat"], c["phrase"]) for c in data["chat"]] == [
        (match.pk, 1, 0, "hello")
    ]
    assert [m["match_id"] for m in data["chat_muted"]] == [match.pk]
    other = clients[1].get("/api/players/me/export").json()
    assert [c["phrase"] for c in other["chat"]] == ["oops"]
    assert other["chat_muted"] == []
