"""Accounts: register (get a token), log in (get your token), who am I."""

from __future__ import annotations

from http import HTTPStatus

from django.contrib.auth.validators import UnicodeUsernameValidator
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import NOT_AUTHENTICATED, GameApi, problem, problem_example
from games.models import Player
from games.services import player_register, token_obtain


@extend_schema_serializer(component_name="Player")
class PlayerOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Player.Kind.choices)
    is_organiser = serializers.BooleanField()


@extend_schema_serializer(component_name="PlayerToken")
class PlayerTokenOutputSerializer(serializers.Serializer):
    player = PlayerOutputSerializer()
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


def player_json(player: Player) -> dict[str, object]:
    return {
        "id": player.pk,
        "name": player.display_name,
        "kind": player.kind,
        "is_organiser": player.organises,
    }


PASSWORD_RULES = (
    "At least 8 characters, not entirely numeric, not a commonly used password and not too "
    "similar to the username (Django's password validators); refused with 400 `invalid`, the "
    "reasons under `errors.password`."
)

PLAYER_EXAMPLE = {"id": 3, "name": "Ada", "kind": "human", "is_organiser": False}
TOKEN_EXAMPLE = {"player": PLAYER_EXAMPLE, "token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}


class PlayerRegisterApi(APIView):
    """Create an account and its player; the answer carries the API token."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema_serializer(component_name="PlayerRegister")
    class PlayerRegisterInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
        password = serializers.CharField(
            min_length=1, max_length=128, write_only=True, help_text=PASSWORD_RULES
        )
        display_name = serializers.CharField(max_length=64, required=False, allow_blank=True)

    @extend_schema(
        operation_id="player_register",
        summary="Register a player",
        tags=["accounts"],
        request=PlayerRegisterInputSerializer,
        examples=[
            OpenApiExample(
                "Register",
                value={
                    "username": "ada",
                    "password": "correct horse battery",
                    "display_name": "Ada",
                },
                request_only=True,
            )
        ],
        responses={
            HTTPStatus.CREATED: OpenApiResponse(
                PlayerTokenOutputSerializer,
                description="The player and their token.",
                examples=[OpenApiExample("Registered", value=TOKEN_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "Bad input or a weak password.",
                (
                    "Weak password",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        "This password is too short. It must contain at least 8 characters.",
                        errors={
                            "password": [
                                "This password is too short. It must contain at least 8 characters."
                            ]
                        },
                    ),
                ),
            ),
            HTTPStatus.CONFLICT: problem(
                "The username is taken.",
                (
                    "Taken",
                    problem_example(
                        409, "username_taken", "Username taken", "The username 'ada' is taken."
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = self.PlayerRegisterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = player_register(**data.validated_data)
        return Response({"player": player_json(player), "token": token}, status=HTTPStatus.CREATED)


class TokenObtainApi(APIView):
    """Log in with a username and password; the answer carries the API token."""

    authentication_classes = ()
    permission_classes = (AllowAny,)

    @extend_schema_serializer(component_name="TokenObtain")
    class TokenObtainInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, write_only=True)

    @extend_schema(
        operation_id="token_obtain",
        summary="Log in (get your token)",
        tags=["accounts"],
        request=TokenObtainInputSerializer,
        examples=[
            OpenApiExample(
                "Log in",
                value={"username": "ada", "password": "correct horse battery"},
                request_only=True,
            )
        ],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                PlayerTokenOutputSerializer,
                description="The player and their token.",
                examples=[OpenApiExample("Logged in", value=TOKEN_EXAMPLE)],
            ),
            HTTPStatus.BAD_REQUEST: problem(
                "A field missing or of the wrong type.",
                (
                    "No password",
                    problem_example(
                        400,
                        "invalid",
                        "Invalid input",
                        "password: This field is required.",
                        errors={"password": ["This field is required."]},
                    ),
                ),
            ),
            HTTPStatus.UNAUTHORIZED: problem(
                "Wrong username or password.",
                (
                    "Wrong password",
                    problem_example(
                        401,
                        "invalid_credentials",
                        "Invalid credentials",
                        "Wrong username or password.",
                    ),
                ),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        data = self.TokenObtainInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player, token = token_obtain(**data.validated_data)
        return Response({"player": player_json(player), "token": token})


class PlayerMeApi(GameApi):
    """The caller's player."""

    @extend_schema(
        operation_id="player_me",
        summary="Who am I",
        tags=["accounts"],
        responses={
            HTTPStatus.OK: OpenApiResponse(
                PlayerOutputSerializer,
                description="The caller's player.",
                examples=[OpenApiExample("Me", value=PLAYER_EXAMPLE)],
            ),
            HTTPStatus.UNAUTHORIZED: NOT_AUTHENTICATED,
        },
    )
    def get(self, request: Request) -> Response:
        return Response(player_json(self.player(request)))
