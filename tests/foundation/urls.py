"""Test-only URLs: the real ones, plus views that fail in every way the API can."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.utils import ConnectionHandler
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.problems import ConflictError
from chickenfoot.urls import handler400, handler403, handler404, handler500, urlpatterns
from games.engine.errors import MalformedMove, NotYourTurn, OptionError, RuleViolation


def _connect_to_a_missing_database() -> Exception:
    """What connecting to a database that is not there raises (Django's own ``OperationalError``,
    from its connecting step): a SQLite file in a directory that does not exist."""
    down = ConnectionHandler(
        {"default": {**settings.DATABASES["default"], "ENGINE": "django.db.backends.sqlite3",
                     "NAME": "/nonexistent-directory/db.sqlite3", "OPTIONS": {}}}
    )  # fmt: skip
    try:
        down["default"].ensure_connection()
    except Exception as exc:  # noqa: BLE001 - the point is to hand it back
        return exc
    raise AssertionError("a database in a missing directory was opened")


RAISERS: dict[str, Callable[[], Exception]] = {
    "rule": lambda: RuleViolation("CF-FOOT", "The chicken foot on 5|5 needs its toes first."),
    "turn": lambda: NotYourTurn("It is seat 2's turn."),
    "malformed": lambda: MalformedMove("A tile is two numbers, like [3, 5]."),
    "option": lambda: OptionError("Unknown house option 'speed'."),
    "conflict": lambda: ConflictError(
        "The match moved on; resend with the current version.", extra={"current_version": 7}
    ),
    "throttled": lambda: exceptions.Throttled(wait=12),
    "http404": lambda: Http404("secret internals"),
    "denied": lambda: DjangoPermissionDenied(),
    "django-invalid": lambda: DjangoValidationError({"seats": ["Ensure this value is >= 2."]}),
    "boom": lambda: RuntimeError("database password is hunter2"),
    "database-down": _connect_to_a_missing_database,
}


class RaiseApi(APIView):
    permission_classes = (AllowAny,)

    def get(self, request: Request, kind: str) -> Response:
        raise RAISERS[kind]()


class MoveInput(serializers.Serializer):
    tile = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2)
    target = serializers.CharField()


class EchoApi(APIView):
    """Open to anyone; GET and POST only."""

    permission_classes = (AllowAny,)

    def get(self, request: Request) -> Response:
        return Response({"ok": True})

    def post(self, request: Request) -> Response:
        data = MoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(data.validated_data)


class PrivateApi(APIView):
    """The default permission: authenticated users only."""

    def get(self, request: Request) -> Response:
        return Response({"user": request.user.get_username()})


def plain_django_failure(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("not an API view")


def plain_django_database_down(request: HttpRequest) -> HttpResponse:
    raise _connect_to_a_missing_database()


urlpatterns = [
    *urlpatterns,
    path("test/raise/<str:kind>", RaiseApi.as_view()),
    path("test/echo", EchoApi.as_view()),
    path("test/private", PrivateApi.as_view()),
    path("test/plain-failure", plain_django_failure),
    path("test/plain-database-down", plain_django_database_down),
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
