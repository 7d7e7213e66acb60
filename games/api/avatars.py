"""Avatars: your own uploaded (``PUT``) or removed (``DELETE``), and every player's served from
its content address (the SHA-256 of its bytes), to anyone, cached for good."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chickenfoot.openapi import AVATAR_SMALL_URL_HELP, AVATAR_URL_HELP
from chickenfoot.renderers import SVGRenderer, WebPRenderer
from chickenfoot.throttles import AVATAR_UPLOAD_THROTTLES
from games.api.apidocs import avatars as apidocs
from games.api.common import GameApi, names_etag
from games.avatars.parsers import ImageBodyParser
from games.avatars.problems import AvatarNotAnImage, AvatarNotFound
from games.avatars.selectors import avatar_file, avatar_paths, initials_avatar, uploaded_avatar
from games.avatars.services import avatar_remove, avatar_set
from games.models import Player


def avatar_urls(request: Request, player: Player) -> dict[str, str]:
    """``player``'s ``avatar_url`` and ``avatar_small_url``, absolute."""
    large, small = avatar_paths(player)
    return {
        "avatar_url": request.build_absolute_uri(large),
        "avatar_small_url": request.build_absolute_uri(small),
    }


@extend_schema_serializer(component_name="Avatar")
class AvatarSerializer(serializers.Serializer):
    avatar_url = serializers.URLField(help_text=AVATAR_URL_HELP)
    avatar_small_url = serializers.URLField(help_text=AVATAR_SMALL_URL_HELP)
    uploaded = serializers.BooleanField(help_text=apidocs.UPLOADED_HELP)


def _avatar_answer(request: Request, player: Player) -> Response:
    body = {**avatar_urls(request, player), "uploaded": uploaded_avatar(player) is not None}
    return Response(AvatarSerializer(body).data)


class AvatarApi(GameApi):
    """Your avatar: upload a picture, or remove it."""

    parser_classes = (ImageBodyParser,)

    def get_throttles(self) -> list[Any]:
        request = getattr(self, "request", None)
        limited = request is not None and request.method == "PUT"
        return [throttle() for throttle in AVATAR_UPLOAD_THROTTLES] if limited else []

    @extend_schema(**apidocs.avatar_put(AvatarSerializer))
    def put(self, request: Request) -> Response:
        body = request.data
        if not isinstance(body, bytes) or not body:
            raise AvatarNotAnImage(
                _("No image was sent: send it as the body, as image/png, image/jpeg or image/webp.")
            )
        player = self.player(request)
        avatar_set(player=player, body=body)
        return _avatar_answer(request, player)

    @extend_schema(**apidocs.avatar_delete(AvatarSerializer))
    def delete(self, request: Request) -> Response:
        player = self.player(request)
        avatar_remove(player=player)
        return _avatar_answer(request, player)


def _picture(request: Request, digest: str, body: bytes | str | None, media: str) -> Response:
    """``body`` at its content address ``digest``, cached for good; 304 to a holder of it."""
    if body is None:
        raise AvatarNotFound(_("No avatar is at this address."))
    headers = {"ETag": f'"{digest}"', "Cache-Control": apidocs.IMMUTABLE}
    if names_etag(request.headers.get("If-None-Match"), headers["ETag"]):
        return Response(status=HTTPStatus.NOT_MODIFIED, headers=headers)
    return Response(body, headers=headers, content_type=media)


class AvatarFileApi(APIView):
    """An uploaded avatar, by its content address: public (the address is the picture's own
    hash, so it names that picture and no other), the same bytes for good."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    renderer_classes = (WebPRenderer,)

    @extend_schema(**apidocs.AVATAR_FILE)
    def get(self, request: Request, digest: str) -> Response:
        return _picture(request, digest, avatar_file(digest=digest), "image/webp")


class AvatarInitialsApi(APIView):
    """A player's default avatar, their initials, by its content address (which changes with
    their name): public, the same bytes for good, under the pictures' SVG policy."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    renderer_classes = (SVGRenderer,)

    @extend_schema(**apidocs.AVATAR_INITIALS)
    def get(self, request: Request, player_id: int, digest: str) -> Response:
        svg = initials_avatar(player_id=player_id, digest=digest)
        return _picture(request, digest, svg, "image/svg+xml")
