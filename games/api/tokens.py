"""The caller's tokens: log out (this token), log out everywhere, list them, revoke one by id."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.accounts.tokens import token_revoke, tokens_of, tokens_revoke_all
from games.api.apidocs import tokens as apidocs
from games.api.common import GameApi
from games.api.paging import PAGE_PARAMETERS, MatchPagination
from games.api.strict import PAGE_PARAMS, QuerySerializer
from games.models import DeviceToken


@extend_schema_serializer(component_name="Token")
class TokenOutputSerializer(serializers.Serializer):
    """One of the caller's tokens; never its key (the server keeps only a hash)."""

    id = serializers.IntegerField()
    device = serializers.CharField(help_text="The name given at login; empty if none was.")
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True, help_text="Null: never expires.")
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="When it last authenticated a request (to the minute)."
    )
    current = serializers.BooleanField(help_text="Is this the token of this very request?")


@extend_schema_serializer(component_name="LogoutAll")
class LogoutAllOutputSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="How many tokens were revoked (this one too).")


class TokenPagination(MatchPagination):
    """The token list in pages (50 by default, at most 100)."""


def token_row(token: DeviceToken, current: DeviceToken | None) -> dict[str, object]:
    return {
        "id": token.pk,
        "device": token.device,
        "created": token.created,
        "expiry": token.expiry,
        "last_used": token.last_used,
        "current": current is not None and token.pk == current.pk,
    }


class LogoutApi(GameApi):
    """Log out: revoke the token this request was sent with (other devices stay logged in)."""

    @extend_schema(
        operation_id="logout",
        summary="Log out (revoke this token)",
        tags=["accounts"],
        request=None,
        responses=apidocs.LOGOUT_RESPONSES,
    )
    def post(self, request: Request) -> Response:
        token_revoke(user=request.user, token_id=request.auth.pk)
        return Response(status=HTTPStatus.NO_CONTENT)


class LogoutAllApi(GameApi):
    """Log out everywhere: revoke every token of the caller, this one too."""

    @extend_schema(
        operation_id="logout_all",
        summary="Log out everywhere (revoke all my tokens)",
        tags=["accounts"],
        request=None,
        responses=apidocs.logout_all_responses(LogoutAllOutputSerializer),
    )
    def post(self, request: Request) -> Response:
        return Response({"revoked": tokens_revoke_all(user=request.user)})


class TokenListApi(GameApi):
    """The caller's tokens still valid (one per login), newest first, in pages; never the keys."""

    pagination_class = TokenPagination

    class TokenListQuerySerializer(QuerySerializer):
        also_known = PAGE_PARAMS
        pagination = TokenPagination

    @extend_schema(
        operation_id="token_list",
        summary="My tokens (one per device)",
        tags=["accounts"],
        parameters=PAGE_PARAMETERS,
        responses=apidocs.token_list_responses(TokenOutputSerializer),
    )
    def get(self, request: Request) -> Response:
        self.TokenListQuerySerializer(data=request.query_params).is_valid(raise_exception=True)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(tokens_of(user=request.user), request, view=self) or []
        rows = [token_row(token, request.auth) for token in page]
        return paginator.get_paginated_response(TokenOutputSerializer(rows, many=True).data)


class TokenRevokeApi(GameApi):
    """Revoke one of the caller's tokens by its id (a lost phone); the device is logged out."""

    @extend_schema(
        operation_id="token_revoke",
        summary="Revoke one of my tokens",
        tags=["accounts"],
        responses=apidocs.TOKEN_REVOKE_RESPONSES,
    )
    def delete(self, request: Request, token_id: int) -> Response:
        token_revoke(user=request.user, token_id=token_id)
        return Response(status=HTTPStatus.NO_CONTENT)
