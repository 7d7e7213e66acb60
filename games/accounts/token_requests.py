"""The browser's middleware, passed by for the API's requests that carry a token.

Django's authentication and messages are for the pages and the admin: an API request with
``Authorization: Token …`` or ``Bearer …`` is authenticated by its token (DRF's views take no
session when a token is sent: the token authenticates the request or refuses it, 401) and
reads no message. Each middleware here is Django's own, which such a request passes by without
``request.user`` or its messages being set up (DRF sets ``request.user``, from the token);
every other request goes through it unchanged. Sessions and CSRF stay as Django has them for
every request (a session is loaded only if read; DRF's views are exempt from CSRF, and enforce
it themselves for a session; Django's deploy checks look for both middleware by name).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.messages.middleware import MessageMiddleware
from django.http import HttpRequest, HttpResponseBase

from games.accounts.authentication import ACCEPTED_SCHEMES_LOWER

API_PREFIX = "/api/"


def token_api_request(request: HttpRequest) -> bool:
    """Whether ``request`` is to the API and names a token in ``Authorization``."""
    header = request.META.get("HTTP_AUTHORIZATION")
    if not header or not request.path_info.startswith(API_PREFIX):
        return False
    return header.split(" ", 1)[0].lower() in ACCEPTED_SCHEMES_LOWER


class _PassedByTokenRequests:
    get_response: Callable[[HttpRequest], HttpResponseBase]

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if token_api_request(request):
            return self.get_response(request)
        return super().__call__(request)  # type: ignore[misc]


class TokenAwareAuthenticationMiddleware(_PassedByTokenRequests, AuthenticationMiddleware):
    """Django's ``AuthenticationMiddleware``; the API's token requests get ``request.user``
    from the token, by DRF."""


class TokenAwareMessageMiddleware(_PassedByTokenRequests, MessageMiddleware):
    """Django's ``MessageMiddleware``; the API's token requests carry no messages."""
