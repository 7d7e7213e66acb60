"""Accounts: register (get a token), log in (get a token for this device), who am I."""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.i18n.choice import use_player_language
from chickenfoot.i18n.languages import LANGUAGE_CODES, LANGUAGES
from chickenfoot.problems import flatten_errors
from chickenfoot.throttles import LOGIN_THROTTLES, PASSWORD_CHECK_THROTTLES, REGISTER_THROTTLES
from games.accounts.deletion import player_delete
from games.accounts.devices import MAX_LENGTH as DEVICE_CREDENTIAL_MAX_LENGTH
from games.accounts.devices import presented, set_cookie
from games.accounts.names import DISPLAY_NAME_MAX_LENGTH, USERNAME_MAX_LENGTH
from games.accounts.players import player_language_set, player_register_refused
from games.accounts.token_models import DEVICE_MAX_LENGTH
from games.api.account_email import link_base
from games.api.apidocs import players as apidocs
from games.api.common import (
    GameApi,
)
from games.api.quiet_hours import (
    QUIET_HOURS_HELP,
    QuietHoursSerializer,
    TimeZoneField,
    quiet_hours_fields,
    quiet_hours_json,
)
from games.models import DeviceToken, Player
from games.profiles.services import player_quiet_hours_set, player_visibility_set
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
    token = serializers.CharField(
        help_text="Send it as `Authorization: Bearer <token>` (or `Token <token>`). Shown once: "
        "the server keeps only its hash."
    )
    token_id = serializers.IntegerField(
        help_text="The token's id in `GET /api/auth/tokens` (revoke it by this id)."
    )
    expiry = serializers.DateTimeField(
        allow_null=True,
        help_text="When the token stops working (log in again then); null: never.",
    )
    device_credential = serializers.CharField(
        allow_null=True,
        help_text=apidocs.DEVICE_CREDENTIAL_HELP,
    )


LANGUAGE_HELP = (
    "The language the player chose for the pages and for the API's answers (problems' `title` "
    "and `detail` too): one of " + ", ".join(f"`{code}`" for code in LANGUAGE_CODES) + ", or "
    "empty for none (then `Accept-Language`, then English). An answer's `Content-Language` "
    "names the language it is in."
)


class LanguageField(serializers.ChoiceField):
    """A language code of the service, or "" (none); anything else is refused, naming the codes."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(choices=[("", "none"), *LANGUAGES], help_text=LANGUAGE_HELP, **kwargs)

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str) or data not in (*LANGUAGE_CODES, ""):
            raise ValidationError(
                _("Not a language of this service: send one of %(codes)s, or an empty string.")
                % {"codes": ", ".join(LANGUAGE_CODES)},
                code="invalid_choice",
            )
        return data


PROFILE_VISIBILITY_HELP = (
    "Who sees the player's profile, history, statistics, rating changes and head-to-head: "
    "`everyone` (every signed-in player), `friends` (the player and their friends: "
    "`GET /api/friends`) or `nobody` (the player alone). Their name and avatar are shown to "
    "everyone."
)


@extend_schema_serializer(component_name="PlayerMe")
class PlayerMeOutputSerializer(PlayerOutputSerializer):
    language = LanguageField()
    profile_visibility = serializers.ChoiceField(
        choices=Player.Visibility.choices, help_text=PROFILE_VISIBILITY_HELP
    )
    time_zone = TimeZoneField()
    quiet_hours = QuietHoursSerializer(allow_null=True, help_text=QUIET_HOURS_HELP)


def token_json(
    player: Player, token: DeviceToken, key: str, credential: str | None
) -> dict[str, object]:
    return {
        "player": player_json(player),
        "token": key,
        "token_id": token.pk,
        "expiry": serializers.DateTimeField().to_representation(token.expiry)
        if token.expiry
        else None,
        "device_credential": credential,
    }


def token_response(
    request: Request, answer: tuple[Player, DeviceToken, str, str | None], status: int
) -> Response:
    """The answer of a log-in or a registration; the device credential in the web's cookie too."""
    player, token, key, credential = answer
    response = Response(token_json(player, token, key, credential), status=status)
    set_cookie(response, request._request, credential)
    return response


def player_json(player: Player) -> dict[str, object]:
    return {
        "id": player.pk,
        "name": player.display_name,
        "kind": player.kind,
        "is_organiser": player.organises,
    }


def player_me_json(player: Player) -> dict[str, object]:
    return {
        **player_json(player),
        "language": player.language,
        "profile_visibility": player.profile_visibility,
        **quiet_hours_json(player),
    }


PASSWORD_RULES = (
    "At least 8 characters, not entirely numeric, not a commonly used password and not too "
    "similar to the username (Django's password validators); refused with 400 `invalid`, the "
    "reasons under `errors.password`."
)

USERNAME_RULES = (
    "Up to 64 letters, digits and `@.+-_` (after Unicode NFKC normalisation, which is how it is "
    "stored). Unique without regard to case or form: `Ada`, `ADA` and a full-width `ada` are "
    "one name; log in with any of them. A name taken gets 409 `username_taken`."
)
DISPLAY_NAME_RULES = (
    "Up to 64 characters; the username if empty. It needs a visible character, and may not hold "
    "a bidirectional control (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C), a control "
    "character or a lone surrogate, nor stack more than 4 combining marks on one character; nor "
    "may it pass for a bot's name (`Shark bot (level 3)`, `SHARK-B0T`, anything with "
    "`bot (level`): 400 `invalid` under `errors.display_name`."
)

DEVICE_HELP = (
    "A name for the device or app logging in (up to 64 characters), shown in the token list."
)


class PlayerRegisterApi(APIView):
    """Create an account and its player; the answer carries the API token."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = REGISTER_THROTTLES

    @extend_schema_serializer(component_name="PlayerRegister")
    class PlayerRegisterInputSerializer(serializers.Serializer):
        # letters, digits and @.+-_ are checked once normalised (the service)
        username = serializers.CharField(max_length=USERNAME_MAX_LENGTH, help_text=USERNAME_RULES)
        password = serializers.CharField(
            min_length=1, max_length=128, write_only=True, help_text=PASSWORD_RULES
        )
        display_name = serializers.CharField(
            max_length=DISPLAY_NAME_MAX_LENGTH,
            required=False,
            allow_blank=True,
            help_text=DISPLAY_NAME_RULES,
        )
        device = serializers.CharField(
            max_length=DEVICE_MAX_LENGTH, required=False, allow_blank=True, help_text=DEVICE_HELP
        )
        email = serializers.EmailField(
            required=False, allow_blank=True, help_text=apidocs.REGISTER_EMAIL_HELP
        )

    @extend_schema(
        operation_id="player_register",
        summary="Register a player",
        tags=["accounts"],
        request=PlayerRegisterInputSerializer,
        examples=apidocs.PLAYER_REGISTER_EXAMPLES,
        responses=apidocs.player_register_responses(PlayerTokenOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        data = self.PlayerRegisterInputSerializer(data=request.data)
        if not data.is_valid():
            if not isinstance(request.data, Mapping):
                raise ValidationError(data.errors)
            # with the name and password checks of the rest of it: every field at once
            raise player_register_refused(body=request.data, errors=flatten_errors(data.errors))
        answer = player_register(**data.validated_data, link_base=link_base(request))
        return token_response(request, answer, HTTPStatus.CREATED)


class TokenObtainApi(APIView):
    """Log in with a username and password; the answer carries a new token for this device.

    Each login makes a token of its own (name the device to tell them apart in the token list),
    valid until it expires (`AUTH_TOKEN_TTL_HOURS`) or is revoked (logout), and gives the
    client a device credential: sent back with the next log-in (`device_credential`, or the
    web's cookie), it makes that log-in a known device's, which a flood of log-ins or the
    account's lockout does not keep out (docs/reliability.md, "Known devices").
    """

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = LOGIN_THROTTLES

    @extend_schema_serializer(component_name="TokenObtain")
    class TokenObtainInputSerializer(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, write_only=True)
        device = serializers.CharField(
            max_length=DEVICE_MAX_LENGTH, required=False, allow_blank=True, help_text=DEVICE_HELP
        )
        device_credential = serializers.CharField(
            max_length=DEVICE_CREDENTIAL_MAX_LENGTH,
            required=False,
            allow_blank=True,
            help_text=apidocs.DEVICE_CREDENTIAL_INPUT_HELP,
        )

    @extend_schema(
        request=TokenObtainInputSerializer,
        responses=apidocs.token_obtain_responses(PlayerTokenOutputSerializer),
        **apidocs.TOKEN_OBTAIN,
    )
    def post(self, request: Request) -> Response:
        data = self.TokenObtainInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data.pop("device_credential", "")
        answer = token_obtain(
            **data.validated_data,
            request=request._request,
            device_credentials=presented(request._request, given),
        )
        return token_response(request, answer, HTTPStatus.OK)


class PlayerMeApi(GameApi):
    """The caller's player; what they may change of it (their language, who sees their
    profile)."""

    @extend_schema_serializer(component_name="PlayerMeUpdate")
    class PlayerMeUpdateInputSerializer(serializers.Serializer):
        language = LanguageField(required=False)
        profile_visibility = serializers.ChoiceField(
            choices=Player.Visibility.choices, required=False, help_text=PROFILE_VISIBILITY_HELP
        )
        time_zone = TimeZoneField(required=False)
        quiet_hours = QuietHoursSerializer(
            required=False, allow_null=True, help_text=QUIET_HOURS_HELP
        )

    @extend_schema(
        operation_id="player_me",
        summary="Who am I",
        tags=["accounts"],
        responses=apidocs.player_me_responses(PlayerMeOutputSerializer),
    )
    def get(self, request: Request) -> Response:
        return Response(player_me_json(self.player(request)))

    @extend_schema(
        operation_id="player_me_update",
        summary="Change my settings (language, who sees my profile, quiet hours)",
        tags=["accounts"],
        request=PlayerMeUpdateInputSerializer,
        examples=apidocs.PLAYER_ME_UPDATE_EXAMPLES,
        responses=apidocs.player_me_update_responses(PlayerMeOutputSerializer),
    )
    def patch(self, request: Request) -> Response:
        data = self.PlayerMeUpdateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = self.player(request)
        if "language" in data.validated_data:
            player_language_set(player=player, language=data.validated_data["language"])
            use_player_language(request, player.language)  # the answer is in the new language
        if "profile_visibility" in data.validated_data:
            player_visibility_set(
                player=player, visibility=data.validated_data["profile_visibility"]
            )
        player_quiet_hours_set(player=player, **quiet_hours_fields(data.validated_data))
        return Response(player_me_json(player))


class PlayerDeleteApi(GameApi):
    """Deleting the caller's account, its password checked: its record stays, anonymised."""

    def get_throttles(self) -> list:
        return [t() for t in PASSWORD_CHECK_THROTTLES]

    @extend_schema_serializer(component_name="PlayerDelete")
    class PlayerDeleteInputSerializer(serializers.Serializer):
        password = serializers.CharField(max_length=128, help_text="The current password.")

    @extend_schema(
        operation_id="player_delete",
        summary="Delete my account",
        tags=["accounts"],
        request=PlayerDeleteInputSerializer,
        examples=apidocs.PLAYER_DELETE_EXAMPLES,
        responses=apidocs.PLAYER_DELETE_RESPONSES,
    )
    def post(self, request: Request) -> Response:
        data = self.PlayerDeleteInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player_delete(user=request.user, **data.validated_data, request=request._request)
        return Response(status=HTTPStatus.NO_CONTENT)
