"""Invitations to a seat, and rematches: invite, list, accept (by id or a link's code),
decline, withdraw; a rematch of a finished match."""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from chickenfoot.throttles import CODE_GUESS_THROTTLES, guesses_counted
from games.api.apidocs import invitations as docs
from games.api.common import GameApi, etag
from games.api.invitation_types import (
    InvitationCodeInputSerializer,
    InvitationCreateInputSerializer,
    InvitationIssuedSerializer,
    InvitationOutputSerializer,
    invitation_body,
)
from games.api.paging import MatchPagination
from games.api.strict import PAGE_PARAMS, QuerySerializer
from games.invitations.rematch import rematch_request
from games.invitations.selectors import invitation_get, invitations_of
from games.invitations.services import (
    invitation_accept,
    invitation_accept_code,
    invitation_create,
    invitation_creator_check,
    invitation_decline,
    invitation_withdraw,
    invitee_find,
)
from games.problems import InvitationNotFound
from games.selectors import match_get, match_summary


def invite_url(*, base: str, code: str) -> str:
    """The link's address for the app: the code in the fragment, which no log sees."""
    return f"{base.rstrip('/')}/invite/#{code}"


class InvitationCreateApi(GameApi):
    """Hold a seat of your open match for a player (by id or username), or make a link."""

    @extend_schema(**docs.CREATE_DOCS, request=InvitationCreateInputSerializer)
    def post(self, request: Request, match_id: int) -> Response:
        invitation_creator_check(match_id=match_id, player=self.player(request))
        data = InvitationCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        invitee = None
        if not values["link"]:
            invitee = invitee_find(
                player_id=values.get("player_id"), username=values.get("username")
            )
        issued = invitation_create(
            match_id=match_id,
            inviter=self.player(request),
            position=values.get("seat"),
            invitee=invitee,
            link=values["link"],
        )
        body = invitation_body(invitation_get(invitation_id=issued.invitation.pk))
        base = settings.SCORER_LINK_BASE_URL or request.build_absolute_uri("/")
        body["code"] = issued.code
        body["url"] = invite_url(base=base, code=issued.code) if issued.code else None
        return Response(InvitationIssuedSerializer(body).data, status=HTTPStatus.CREATED)


class InvitationListApi(GameApi):
    """The invitations you received (or, with `?sent=true`, sent), newest first, in pages."""

    pagination_class = MatchPagination

    class InvitationFilterSerializer(QuerySerializer):
        also_known = PAGE_PARAMS
        pagination = MatchPagination
        sent = serializers.BooleanField(required=False, help_text="`true`: the ones you sent.")

    @extend_schema(**docs.LIST_DOCS, parameters=[InvitationFilterSerializer, *docs.PAGING])
    def get(self, request: Request) -> Response:
        filters = self.InvitationFilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        sent = bool(filters.validated_data.get("sent"))
        rows = invitations_of(player=self.player(request), sent=sent)
        paginator = self.pagination_class()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        bodies = [invitation_body(invitation) for invitation in page]
        return paginator.get_paginated_response(InvitationOutputSerializer(bodies, many=True).data)


class InvitationWithdrawApi(GameApi):
    """Withdraw an invitation you sent: its seat is open to anyone again."""

    @extend_schema(**docs.WITHDRAW_DOCS)
    def delete(self, request: Request, invitation_id: int) -> Response:
        invitation_withdraw(invitation_id=invitation_id, player=self.player(request))
        return Response(status=HTTPStatus.NO_CONTENT)


class InvitationAcceptApi(GameApi):
    """Accept an invitation to you: you take the seat it held (every join rule applies)."""

    @extend_schema(**docs.ACCEPT_DOCS)
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation_accept(invitation_id=invitation_id, player=self.player(request))
        body = invitation_body(invitation_get(invitation_id=invitation_id))
        return Response(InvitationOutputSerializer(body).data)


class InvitationDeclineApi(GameApi):
    """Decline an invitation to you: the seat it held is open to anyone again."""

    @extend_schema(**docs.DECLINE_DOCS)
    def post(self, request: Request, invitation_id: int) -> Response:
        invitation_decline(invitation_id=invitation_id, player=self.player(request))
        body = invitation_body(invitation_get(invitation_id=invitation_id))
        return Response(InvitationOutputSerializer(body).data)


class InvitationCodeAcceptApi(GameApi):
    """Take the seat a link holds, with its code (a code works once, for its one seat).

    A code that opens no seat counts against your account and your address
    (docs/reliability.md).
    """

    @extend_schema(**docs.CODE_ACCEPT_DOCS)
    def post(self, request: Request) -> Response:
        data = InvitationCodeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with guesses_counted(request, CODE_GUESS_THROTTLES, failures=(InvitationNotFound,)):
            invitation = invitation_accept_code(
                code=data.validated_data["code"],
                player=self.player(request),
                match_id=data.validated_data.get("match_id"),
            )
        body = invitation_body(invitation_get(invitation_id=invitation.pk))
        return Response(InvitationOutputSerializer(body).data)


class RematchApi(GameApi):
    """The rematch of a finished match you played: created by the first call (you seated, bots
    at their levels, every other player invited to their old seat); the same match after."""

    @extend_schema(**docs.REMATCH_DOCS)
    def post(self, request: Request, match_id: int) -> Response:
        player = self.player(request)
        rematch = rematch_request(match_id=match_id, player=player)
        match = match_get(match_id=rematch.match.pk)
        return Response(
            match_summary(match=match, viewer=player),
            status=HTTPStatus.CREATED if rematch.created else HTTPStatus.OK,
            headers={"ETag": etag(match.version), "Location": f"/api/matches/{match.pk}"},
        )
