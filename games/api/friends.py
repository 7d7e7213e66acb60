"""Friends and blocks: friend requests (send, list, accept, decline), the friends list with
presence, ending a friendship, blocking and unblocking a player, the caller's blocks."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.query import check_query_params
from chickenfoot.throttles import FRIEND_REQUEST_THROTTLES
from games.api.apidocs import friends as apidocs
from games.api.avatars import avatar_urls
from games.api.common import GameApi
from games.api.friend_types import (
    BlockSerializer,
    FriendRequestInputSerializer,
    FriendRequestSerializer,
    FriendRequestsSerializer,
    FriendSerializer,
    PageQuerySerializer,
    SocialPagination,
)
from games.social.blocks import block_json, blocks_of
from games.social.cards import Card, player_card
from games.social.friends import friends_by_name, friends_json, request_json, requests_json
from games.social.services import (
    block_add,
    block_remove,
    friend_remove,
    friend_request_accept,
    friend_request_decline,
    friend_request_send,
)


def _created(created: bool) -> HTTPStatus:
    return HTTPStatus.CREATED if created else HTTPStatus.OK


def _card(request: Request) -> Card:
    """A player's card with their avatar's absolute URLs."""
    return lambda player: {**player_card(player), **avatar_urls(request, player)}


class FriendRequestsApi(GameApi):
    """The caller's pending friend requests (GET); ask a player to be friends (POST)."""

    def get_throttles(self) -> list[Any]:
        request = getattr(self, "request", None)
        sending = request is not None and request.method == "POST"
        return [throttle() for throttle in FRIEND_REQUEST_THROTTLES] if sending else []

    @extend_schema(**apidocs.REQUESTS_LIST)
    def get(self, request: Request) -> Response:
        check_query_params(request.query_params, [])
        body = requests_json(player=self.player(request).pk, card=_card(request))
        return Response(FriendRequestsSerializer(body).data)

    @extend_schema(**apidocs.REQUEST_SEND)
    def post(self, request: Request) -> Response:
        data = FriendRequestInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sent = friend_request_send(
            sender=self.player(request), player_id=data.validated_data["player_id"]
        )
        body = FriendRequestSerializer(request_json(sent.request, _card(request))).data
        return Response(body, status=_created(sent.created))


class FriendRequestAcceptApi(GameApi):
    @extend_schema(**apidocs.REQUEST_ACCEPT)
    def post(self, request: Request, request_id: int) -> Response:
        accepted = friend_request_accept(request_id=request_id, player=self.player(request))
        return Response(FriendRequestSerializer(request_json(accepted, _card(request))).data)


class FriendRequestDeclineApi(GameApi):
    @extend_schema(**apidocs.REQUEST_DECLINE)
    def post(self, request: Request, request_id: int) -> Response:
        declined = friend_request_decline(request_id=request_id, player=self.player(request))
        return Response(FriendRequestSerializer(request_json(declined, _card(request))).data)


class FriendsApi(GameApi):
    """The caller's friends by name, in pages, each with their presence."""

    pagination_class = SocialPagination

    @extend_schema(**apidocs.FRIENDS_LIST)
    def get(self, request: Request) -> Response:
        PageQuerySerializer(data=request.query_params).is_valid(raise_exception=True)
        player = self.player(request)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(friends_by_name(player.pk), request, view=self) or []
        rows = friends_json(player=player.pk, page=list(page), card=_card(request))
        return paginator.get_paginated_response(FriendSerializer(rows, many=True).data)


class FriendApi(GameApi):
    @extend_schema(**apidocs.FRIEND_REMOVE)
    def delete(self, request: Request, player_id: int) -> Response:
        friend_remove(player=self.player(request), friend_id=player_id)
        return Response(status=HTTPStatus.NO_CONTENT)


class BlockApi(GameApi):
    """Block a player (POST) or unblock them (DELETE)."""

    @extend_schema(**apidocs.BLOCK_ADD)
    def post(self, request: Request, player_id: int) -> Response:
        block, created = block_add(blocker=self.player(request), player_id=player_id)
        body = BlockSerializer(block_json(block, _card(request))).data
        return Response(body, status=_created(created))

    @extend_schema(**apidocs.BLOCK_REMOVE)
    def delete(self, request: Request, player_id: int) -> Response:
        block_remove(blocker=self.player(request), player_id=player_id)
        return Response(status=HTTPStatus.NO_CONTENT)


class BlocksApi(GameApi):
    """The players the caller blocked, newest first, in pages."""

    pagination_class = SocialPagination

    @extend_schema(**apidocs.BLOCKS_LIST)
    def get(self, request: Request) -> Response:
        PageQuerySerializer(data=request.query_params).is_valid(raise_exception=True)
        paginator = self.pagination_class()
        blocks = blocks_of(self.player(request).pk)
        page = paginator.paginate_queryset(blocks, request, view=self) or []
        rows = [block_json(block, _card(request)) for block in page]
        return paginator.get_paginated_response(BlockSerializer(rows, many=True).data)
