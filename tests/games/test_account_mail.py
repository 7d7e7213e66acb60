"""Account mails through a real SMTP server on loopback: verifying an address, resetting and
changing a password, what a mail holds (hostile names escaped), the limits and the lockout."""

from __future__ import annotations

import logging
import uuid
from http import HTTPStatus
from typing import Any
from urllib.parse import urlencode

import pytest
from django.utils.html import escape
from rest_framework.test import APIClient

from games.models import Player
from tests.caches import cache_of_own
from tests.foundation.hostile import STORABLE
from tests.games.conftest import client_for
from tests.games.factories import PlayerFactory
from tests.games.smtp import Mailbox, html_of, link_in, smtp_server, text_of  # noqa: F401
from tests.processes import refusing_port

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new passphrase"


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a block's work after commit (the mail task) as a real request would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Every line the service logged (the test's SMTP server logs what it receives: not ours)."""
    return "\n".join(
        f"{r.name} {r.getMessage()} {r.exc_text or ''}"
        for r in caplog.records
        if not r.name.startswith("mail.log")
    )


def register(committed: Any, username: str, email: str = "", **more: str) -> dict[str, Any]:
    body = {"username": username, "password": PASSWORD, **more}
    if email:
        body["email"] = email
    with committed():
        response = APIClient().post("/api/players", body, format="json")
    assert response.status_code == HTTPStatus.CREATED, response.content
    return response.json()


def bearer(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def login(username: str, password: str, device: str = "") -> Any:
    body = {"username": username, "password": password, "device": device}
    return APIClient().post("/api/auth/token", body, format="json")


def verified(committed: Any, smtp: Mailbox, username: str, email: str) -> dict[str, Any]:
    """A registered account whose address is verified by its mailed link."""
    account = register(committed, username, email)
    path, params = link_in(smtp.messages[-1])
    assert path == "/account/verify-email"
    answer = bearer(account["token"]).post(
        "/api/players/me/email/verify", {"token": params["token"]}, format="json"
    )
    assert answer.status_code == HTTPStatus.OK, answer.content
    return account


def test_registering_with_an_address_mails_a_link_whose_token_verifies_it(
    committed: Any, smtp: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    # given / when
    caplog.set_level(logging.DEBUG)
    account = register(committed, "ada", "Ada@Example.com", display_name="Ada L.")

    # then: one mail, to that address, text and HTML, with a link on this host
    assert smtp.recipients == [["Ada@Example.com"]]
    mail = smtp.messages[0]
    assert mail["Subject"] == "Confirm your e-mail address"
    assert "Hello Ada L.," in text_of(mail)
    path, params = link_in(mail)
    assert path == "/account/verify-email"
    assert f'href="http://testserver/account/verify-email?{urlencode(params)}"' in html_of(mail)
    me = bearer(account["token"])
    assert me.get("/api/players/me/email").json()["verified"] is False

    # when: the app opens the link and confirms it
    answer = me.post("/api/players/me/email/verify", {"token": params["token"]}, format="json")

    # then
    assert answer.status_code == HTTPStatus.OK, answer.content
    assert answer.json()["verified"] is True
    assert me.get("/api/players/me/email").json()["email"] == "Ada@Example.com"
    # twice is once
    again = me.post("/api/players/me/email/verify", {"token": params["token"]}, format="json")
    assert again.status_code == HTTPStatus.OK
    # and: no token, no password in any log line
    said = logged(caplog)
    assert "Account mail verify_email sent to player" in said
    for secret in (params["token"], PASSWORD, account["token"]):
        assert secret not in said


def test_a_token_verifies_only_its_own_account_and_current_address(
    committed: Any, smtp: Mailbox
) -> None:
    ada = register(committed, "ada", "ada@example.com")
    ada_token = link_in(smtp.messages[-1])[1]["token"]
    grace = register(committed, "grace", "grace@example.com")

    # another account's token: refused
    other = bearer(grace["token"]).post(
        "/api/players/me/email/verify", {"token": ada_token}, format="json"
    )
    assert other.status_code == HTTPStatus.BAD_REQUEST
    assert other.json()["code"] == "invalid_link"
    # an altered token: refused
    altered = bearer(ada["token"]).post(
        "/api/players/me/email/verify", {"token": ada_token[:-2] + "xx"}, format="json"
    )
    assert altered.json()["code"] == "invalid_link"
    # the address changed since: the old link no longer verifies
    with committed():
        changed = bearer(ada["token"]).put(
            "/api/players/me/email", {"email": "ada@elsewhere.example"}, format="json"
        )
    assert changed.status_code == HTTPStatus.OK
    assert changed.json()["verification_sent"] is True
    stale = bearer(ada["token"]).post(
        "/api/players/me/email/verify", {"token": ada_token}, format="json"
    )
    assert stale.json()["code"] == "invalid_link"
    assert Player.objects.get(user__username="ada").email_verified_at is None


def test_an_address_verified_by_one_account_is_refused_to_another_in_any_case(
    committed: Any, smtp: Mailbox
) -> None:
    verified(committed, smtp, "ada", "ada@example.com")
    grace = register(committed, "grace")

    with committed():
        taken = bearer(grace["token"]).put(
            "/api/players/me/email", {"email": "ADA@example.COM"}, format="json"
        )
        at_registration = APIClient().post(
            "/api/players",
            {"username": "alan", "password": PASSWORD, "email": "ada@EXAMPLE.com"},
            format="json",
        )

    assert taken.status_code == HTTPStatus.CONFLICT
    assert taken["Content-Type"] == "application/problem+json"
    assert taken.json()["code"] == "email_taken"
    assert at_registration.json()["code"] == "email_taken"
    assert not Player.objects.filter(user__username="alan").exists()  # nothing half-written
    assert len(smtp.messages) == 1  # ada's verification only


def test_a_password_reset_mails_a_link_that_sets_the_password_once_and_logs_out_everywhere(
    committed: Any, smtp: Mailbox, caplog: pytest.LogCaptureFixture
) -> None:
    # given: ada, verified, logged in on two devices
    caplog.set_level(logging.DEBUG)
    ada = verified(committed, smtp, "ada", "ada@example.com")
    phone = bearer(login("ada", PASSWORD, "phone").json()["token"])

    # when: she asks for a link
    with committed():
        asked = APIClient().post(
            "/api/auth/password-reset", {"email": "ADA@example.com"}, format="json"
        )

    # then: 202, and a mail with the link
    assert asked.status_code == HTTPStatus.ACCEPTED
    mail = smtp.messages[-1]
    assert mail["Subject"] == "Reset your password"
    path, params = link_in(mail)
    assert path == "/account/reset-password"
    assert set(params) == {"uid", "token"}

    # when: the link is used
    body = {**params, "new_password": NEW_PASSWORD}
    confirmed = APIClient().post("/api/auth/password-reset/confirm", body, format="json")

    # then: the password is set, every token revoked, the new password logs in
    assert confirmed.status_code == HTTPStatus.OK, confirmed.content
    assert confirmed.json() == {"revoked": 2}
    assert bearer(ada["token"]).get("/api/players/me").status_code == HTTPStatus.UNAUTHORIZED
    assert phone.get("/api/players/me").status_code == HTTPStatus.UNAUTHORIZED
    assert login("ada", PASSWORD).status_code == HTTPStatus.UNAUTHORIZED
    assert login("ada", NEW_PASSWORD).status_code == HTTPStatus.OK
    # and: the link works once
    twice = APIClient().post(
        "/api/auth/password-reset/confirm", {**params, "new_password": "another passphrase 3"},
        format="json",
    )  # fmt: skip
    assert twice.status_code == HTTPStatus.BAD_REQUEST
    assert twice.json()["code"] == "invalid_link"
    assert login("ada", NEW_PASSWORD).status_code == HTTPStatus.OK
    # and: no token, no password in the log
    said = logged(caplog)
    assert "Account mail password_reset sent to player" in said
    for secret in (params["token"], params["uid"] + "/" + params["token"], NEW_PASSWORD, PASSWORD):
        assert secret not in said


def test_a_reset_answers_the_same_whoever_it_names_and_mails_only_verified_addresses(
    committed: Any, smtp: Mailbox
) -> None:
    verified(committed, smtp, "ada", "ada@example.com")
    register(committed, "grace", "grace@example.com")  # not verified
    sent = len(smtp.messages)
    answers = []
    with committed():
        for body in (
            {"email": "nobody@example.com"},
            {"username": "nobody"},
            {"email": "grace@example.com"},
            {"username": "grace"},
            {"username": "ADA"},
        ):
            answers.append(APIClient().post("/api/auth/password-reset", body, format="json"))

    assert {(a.status_code, a.content) for a in answers} == {
        (HTTPStatus.ACCEPTED, answers[0].content)
    }
    assert len(smtp.messages) == sent + 1  # ada's, by her username in other capitals
    assert smtp.recipients[-1] == ["ada@example.com"]
    neither = APIClient().post("/api/auth/password-reset", {}, format="json")
    assert neither.status_code == HTTPStatus.BAD_REQUEST


def test_a_weak_new_password_or_a_made_up_link_is_refused_and_nothing_changes(
    committed: Any, smtp: Mailbox
) -> None:
    verified(committed, smtp, "ada", "ada@example.com")
    with committed():
        APIClient().post("/api/auth/password-reset", {"username": "ada"}, format="json")
    params = link_in(smtp.messages[-1])[1]

    weak = APIClient().post(
        "/api/auth/password-reset/confirm", {**params, "new_password": "123"}, format="json"
    )
    made_up = APIClient().post(
        "/api/auth/password-reset/confirm",
        {"uid": "OTk5OQ", "token": params["token"], "new_password": NEW_PASSWORD},
        format="json",
    )

    assert weak.status_code == HTTPStatus.BAD_REQUEST
    assert "new_password" in weak.json()["errors"]
    assert made_up.json()["code"] == "invalid_link"
    assert Player.objects.get(user__username="ada").user.check_password(PASSWORD)
    # the link still works after a weak attempt
    ok = APIClient().post(
        "/api/auth/password-reset/confirm", {**params, "new_password": NEW_PASSWORD}, format="json"
    )
    assert ok.status_code == HTTPStatus.OK, ok.content


def test_changing_the_password_keeps_this_token_and_revokes_the_others(
    committed: Any, smtp: Mailbox
) -> None:
    ada = register(committed, "ada")
    phone = bearer(login("ada", PASSWORD, "phone").json()["token"])
    me = bearer(ada["token"])

    wrong = me.post(
        "/api/players/me/password",
        {"current_password": "not it at all", "new_password": NEW_PASSWORD},
        format="json",
    )
    assert wrong.status_code == HTTPStatus.BAD_REQUEST
    assert wrong.json()["errors"] == {"current_password": ["Wrong password."]}

    changed = me.post(
        "/api/players/me/password",
        {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
        format="json",
    )

    assert changed.status_code == HTTPStatus.OK, changed.content
    assert changed.json()["revoked"] == 1
    assert changed.json()["device_credential"]  # this client, known again (test_known_devices)
    assert me.get("/api/players/me").status_code == HTTPStatus.OK
    assert phone.get("/api/players/me").status_code == HTTPStatus.UNAUTHORIZED
    assert login("ada", PASSWORD).status_code == HTTPStatus.UNAUTHORIZED
    assert login("ada", NEW_PASSWORD).status_code == HTTPStatus.OK


def test_wrong_current_passwords_count_towards_the_log_in_lockout(settings: Any) -> None:
    settings.AXES_FAILURE_LIMIT = 3
    ada = PlayerFactory(user__username="ada")
    me = client_for(ada)
    body = {"current_password": "guess", "new_password": NEW_PASSWORD}

    answers = [me.post("/api/players/me/password", body, format="json") for _ in range(3)]
    right = me.post(
        "/api/players/me/password",
        {"current_password": "a-long-enough-passphrase", "new_password": NEW_PASSWORD},
        format="json",
    )
    deleting = me.post(
        "/api/players/me/delete", {"password": "a-long-enough-passphrase"}, format="json"
    )

    assert [a.status_code for a in answers[:2]] == [HTTPStatus.BAD_REQUEST] * 2
    assert answers[2].json()["code"] == "locked_out"
    assert right.status_code == HTTPStatus.TOO_MANY_REQUESTS
    assert right.json()["code"] == "locked_out"
    assert deleting.json()["code"] == "locked_out"
    assert login("ada", "a-long-enough-passphrase").json()["code"] == "locked_out"


@pytest.mark.parametrize("name", STORABLE)
def test_a_hostile_display_name_is_text_in_the_mail_never_markup(
    committed: Any, smtp: Mailbox, name: str
) -> None:
    player = PlayerFactory(user__username="mallory")
    Player.objects.filter(pk=player.pk).update(display_name=name)

    with committed():
        answer = client_for(player).put(
            "/api/players/me/email", {"email": "m@example.com"}, format="json"
        )

    assert answer.status_code == HTTPStatus.OK
    mail = smtp.messages[-1]
    html = html_of(mail)
    assert escape(name) in html
    if escape(name) != name:
        assert name not in html
    assert "<script>" not in html
    assert name in text_of(mail)  # the plain text is text


def test_limits_answer_429_problems(committed: Any, smtp: Mailbox, settings: Any) -> None:
    # counted in a cache of this test's own: no earlier test's counts for this address
    settings.CACHES = cache_of_own("locmem", f"test-account-limits-{uuid.uuid4().hex}")
    settings.THROTTLE_RATES = {
        "password_reset_account": "2/hour",
        "password_reset": "100/hour",
        "password_change": "1/hour",
        "email_send": "1/hour",
    }
    ada = register(committed, "ada")
    me = bearer(ada["token"])

    resets = [
        APIClient().post("/api/auth/password-reset", {"email": "x@example.com"}, format="json")
        for _ in range(3)
    ]
    other = APIClient().post("/api/auth/password-reset", {"email": "y@example.com"}, format="json")
    sets = [
        me.put("/api/players/me/email", {"email": "ada@example.com"}, format="json")
        for _ in range(2)
    ]
    changes = [
        me.post(
            "/api/players/me/password",
            {"current_password": "wrong guess", "new_password": NEW_PASSWORD},
            format="json",
        )
        for _ in range(2)
    ]

    for refused in (resets[2], sets[1], changes[1]):
        assert refused.status_code == HTTPStatus.TOO_MANY_REQUESTS
        assert refused["Content-Type"] == "application/problem+json"
        assert refused.json()["code"] == "throttled"
        assert int(refused["Retry-After"]) >= 1
    assert [r.status_code for r in resets[:2]] == [HTTPStatus.ACCEPTED] * 2
    assert other.status_code == HTTPStatus.ACCEPTED  # another account's count


def test_an_smtp_server_out_of_reach_fails_no_request_and_is_logged_without_secrets(
    committed: Any, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    with refusing_port() as port:
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
        account = register(committed, "ada", "ada@example.com")

    assert bearer(account["token"]).get("/api/players/me/email").json()["verified"] is False
    said = logged(caplog)
    assert "Account mail verify_email to player" in said
    assert "not sent (ConnectionRefusedError); not retried (run in-process)" in said
    assert account["token"] not in said


def test_the_verified_address_set_again_sends_nothing_and_an_empty_one_removes_it(
    committed: Any, smtp: Mailbox
) -> None:
    ada = verified(committed, smtp, "ada", "ada@example.com")
    me = bearer(ada["token"])
    sent = len(smtp.messages)

    with committed():
        same = me.put("/api/players/me/email", {"email": "ADA@example.com"}, format="json")
        removed = me.put("/api/players/me/email", {"email": ""}, format="json")

    assert same.json() == {**same.json(), "verified": True, "verification_sent": False}
    assert removed.json() == {
        "email": "",
        "verified": False,
        "verified_at": None,
        "verification_sent": False,
    }
    assert len(smtp.messages) == sent
    # and: without an address, no reset link goes anywhere
    with committed():
        asked = APIClient().post("/api/auth/password-reset", {"username": "ada"}, format="json")
    assert asked.status_code == HTTPStatus.ACCEPTED
    assert len(smtp.messages) == sent
