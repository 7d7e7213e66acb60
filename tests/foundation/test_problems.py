"""Every API error is an RFC 9457 problem document."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from chickenfoot.problems import PROBLEM_CONTENT_TYPE, ProblemError, flatten_errors
from games.accounts.tokens import token_issue

pytestmark = [pytest.mark.urls("tests.foundation.urls"), pytest.mark.django_db]


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    body = response.json()
    assert body["type"] == "https://chickenfoot.dev/problems/" + code.replace("_", "-")
    assert body["status"] == status
    assert body["code"] == code
    assert body["title"]
    assert body["detail"]
    return body


def test_validation_error_names_each_field(api_client: APIClient) -> None:
    # when
    response = api_client.post("/test/echo", {"tile": [3, -1]}, format="json")

    # then
    body = assert_problem(response, HTTPStatus.BAD_REQUEST, "invalid")
    assert body["errors"] == {
        "tile.1": ["Ensure this value is greater than or equal to 0."],
        "target": ["This field is required."],
    }
    assert body["detail"] == "Invalid input in: tile.1, target."


def test_malformed_json_is_a_parse_error(api_client: APIClient) -> None:
    response = api_client.post("/test/echo", "{nope", content_type="application/json")

    body = assert_problem(response, HTTPStatus.BAD_REQUEST, "parse_error")
    assert "errors" not in body


def test_unsupported_media_type(api_client: APIClient) -> None:
    response = api_client.post("/test/echo", "tile=3", content_type="text/plain")

    assert_problem(response, HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")


def test_not_acceptable_still_answers_problem_json(api_client: APIClient) -> None:
    response = api_client.get("/test/echo", HTTP_ACCEPT="application/xml")

    assert_problem(response, HTTPStatus.NOT_ACCEPTABLE, "not_acceptable")


def test_anonymous_request_gets_401_with_challenge(api_client: APIClient) -> None:
    response = api_client.get("/test/private")

    assert_problem(response, HTTPStatus.UNAUTHORIZED, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token, Bearer"


def test_bad_token_is_authentication_failed(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")

    response = api_client.get("/test/private")

    assert_problem(response, HTTPStatus.UNAUTHORIZED, "authentication_failed")


@pytest.mark.parametrize("scheme", ["Token", "Bearer", "bearer", "TOKEN"])
def test_token_authenticates_with_either_scheme(
    api_client: APIClient, user: Any, scheme: str
) -> None:
    _, key = token_issue(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=f"{scheme} {key}")

    response = api_client.get("/test/private")

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {"user": "ada"}


@pytest.mark.parametrize("header", ["Basic YWRhOnNlY3JldA==", "JWT abc", "Digest x=1"])
def test_another_scheme_is_refused_naming_the_accepted_ones(
    api_client: APIClient, user: Any, header: str
) -> None:
    _, key = token_issue(user=user)
    api_client.credentials(HTTP_AUTHORIZATION=header.split()[0] + " " + key)

    response = api_client.get("/test/private")

    body = assert_problem(response, HTTPStatus.UNAUTHORIZED, "unsupported_auth_scheme")
    assert "Bearer" in body["detail"]
    assert "Token" in body["detail"]
    assert body["accepted_schemes"] == ["Token", "Bearer"]
    assert response["WWW-Authenticate"] == "Token, Bearer"


def test_a_header_without_its_key_is_refused(api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Bearer")

    response = api_client.get("/test/private")

    assert_problem(response, HTTPStatus.UNAUTHORIZED, "authentication_failed")


def test_method_not_allowed_lists_allowed_methods(api_client: APIClient) -> None:
    response = api_client.delete("/test/echo")

    assert_problem(response, HTTPStatus.METHOD_NOT_ALLOWED, "method_not_allowed")
    assert "POST" in response["Allow"]


def test_throttled_says_when_to_retry(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/throttled")

    assert_problem(response, HTTPStatus.TOO_MANY_REQUESTS, "throttled")
    assert response["Retry-After"] == "12"


def test_django_http404_in_a_view(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/http404")

    body = assert_problem(response, HTTPStatus.NOT_FOUND, "not_found")
    assert "secret" not in body["detail"]


def test_django_permission_denied_in_a_view(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/denied")

    assert_problem(response, HTTPStatus.FORBIDDEN, "permission_denied")


def test_django_validation_error_from_a_service(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/django-invalid")

    body = assert_problem(response, HTTPStatus.BAD_REQUEST, "invalid")
    assert body["errors"] == {"seats": ["Ensure this value is >= 2."]}


def test_rule_violation_is_422_naming_the_rule(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/rule")

    body = assert_problem(response, HTTPStatus.UNPROCESSABLE_ENTITY, "rule_violation")
    assert body["rule"] == "CF-FOOT"
    assert body["title"] == "Rule violation"
    assert body["detail"] == "The chicken foot on 5|5 needs its toes first."


@pytest.mark.parametrize(
    ("kind", "status", "code", "rule"),
    [
        ("turn", HTTPStatus.CONFLICT, "not_your_turn", "C-SEATS"),
        ("malformed", HTTPStatus.BAD_REQUEST, "malformed_move", None),
        ("option", HTTPStatus.BAD_REQUEST, "invalid_option", None),
    ],
)
def test_engine_errors_use_their_status_and_code(
    api_client: APIClient, kind: str, status: int, code: str, rule: str | None
) -> None:
    response = api_client.get(f"/test/raise/{kind}")

    body = assert_problem(response, status, code)
    assert body.get("rule") == rule


def test_problem_error_merges_extra_members(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/conflict")

    body = assert_problem(response, HTTPStatus.CONFLICT, "conflict")
    assert body["current_version"] == 7
    assert body["title"] == "Conflict"


def test_problem_error_extra_cannot_override_standard_members() -> None:
    from chickenfoot.problems import problem_from_exception

    error = ProblemError("Nope.", status=403, code="seat_taken", extra={"status": 200})

    problem = problem_from_exception(error)

    assert problem is not None
    assert problem.as_dict()["status"] == HTTPStatus.FORBIDDEN
    assert problem.as_dict()["type"] == "https://chickenfoot.dev/problems/seat-taken"


def test_unexpected_exception_is_500_without_internals(
    api_client: APIClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="chickenfoot.problems"):
        response = api_client.get("/test/raise/boom")

    body = assert_problem(response, HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error")
    assert "hunter2" not in response.content.decode()
    assert "Traceback" not in body["detail"]
    assert any(record.exc_info for record in caplog.records), "the traceback is logged"


def test_unknown_url_is_problem_json_not_html() -> None:
    response = Client().get("/no/such/page", HTTP_ACCEPT="text/html")

    body = assert_problem(response, HTTPStatus.NOT_FOUND, "not_found")
    assert body["detail"] == "Nothing is served at /no/such/page."


def test_failure_outside_the_api_is_problem_json() -> None:
    client = Client(raise_request_exception=False)

    response = client.get("/test/plain-failure")

    assert_problem(response, HTTPStatus.INTERNAL_SERVER_ERROR, "internal_error")


def test_browser_accept_header_still_gets_json(api_client: APIClient) -> None:
    response = api_client.get("/test/raise/rule", HTTP_ACCEPT="text/html,*/*;q=0.8")

    assert_problem(response, HTTPStatus.UNPROCESSABLE_ENTITY, "rule_violation")


def test_flatten_errors_handles_nesting() -> None:
    detail = {
        "options": {"max_pip": ["Not one of 6, 9, 12."]},
        "moves": [{}, {"tile": ["Required."]}],
        "non_field_errors": ["Seats must differ."],
    }

    assert flatten_errors(detail) == {
        "options.max_pip": ["Not one of 6, 9, 12."],
        "moves.1.tile": ["Required."],
        "non_field_errors": ["Seats must differ."],
    }
    assert flatten_errors(["Just one."]) == {"non_field_errors": ["Just one."]}
