"""Test-only URLs: the real ones, plus views that fail in every way the API can."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
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


urlpatterns = [
    *urlpatterns,
    path("test/raise/<str:kind>", RaiseApi.as_view()),
    path("test/echo", EchoApi.as_view()),
    path("test/private", PrivateApi.as_view()),
    path("test/plain-failure", plain_django_failure),
]

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]
