"""A claim code for a guest entrant of a competition, asked by its organiser."""

from __future__ import annotations

from http import HTTPStatus

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import table_scores as docs
from games.api.common import GameApi
from games.api.table_scores import ClaimCodeApi
from games.tables.claims import entrant_claim_code_issue


class EntrantClaimCodeApi(GameApi):
    """A one-time code for a guest entrant (the competition's organiser only).

    The person, signed in to an account, redeems it at `POST /api/players/me/claims`: every
    seat, result and entry of the guest moves to their account. It works once, for 7 days;
    only its hash is kept. A guest entered before any stage has no seat yet: the code is for
    the entrant, not a seat.
    """

    @extend_schema(
        **docs.ENTRANT_CLAIM_CODE_DOCS,
        responses=docs.entrant_claim_code_responses(ClaimCodeApi.OutputSerializer),
    )
    def post(self, request: Request, competition_id: int, player_id: int) -> Response:
        issued = entrant_claim_code_issue(
            competition_id=competition_id, player_id=player_id, organiser=self.player(request)
        )
        body = {
            "code": issued.code,
            "expires_at": issued.expires_at,
            "guest_id": issued.guest_id,
            "name": issued.name,
        }
        return Response(ClaimCodeApi.OutputSerializer(body).data, status=HTTPStatus.CREATED)
