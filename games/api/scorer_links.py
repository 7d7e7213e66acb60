"""Scorer links of a table match: issue one (its code and URL, shown once), list, revoke."""

from __future__ import annotations

from http import HTTPStatus

from django.conf import settings
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.apidocs import scorer_links as docs
from games.api.common import GameApi
from games.api.scorer_access import ScorerOrPlayerApi
from games.tables.scorer_context import scorer_context
from games.tables.scorer_links import (
    scorer_link_issue,
    scorer_link_revoke,
    scorer_link_url,
    scorer_links_of,
)
from scoring.api.wall import WallClockSerializer


@extend_schema_serializer(component_name="ScorerLink")
class ScorerLinkOutputSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    revoked_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True)


class ScorerLinksApi(GameApi):
    """A table match's scorer links (the match's creator only; docs/tables.md, "Scorer links").

    `POST` makes a new one: its `code` (send `Authorization: Scorer <code>`) and its `url` (for a
    QR code) are shown once (a stage's table's again, in the stage's scorer links); only the
    code's hash is kept. `GET` lists them, without codes.
    """

    @extend_schema_serializer(component_name="ScorerLinkIssued")
    class IssuedSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        code = serializers.CharField(help_text="10 letters and digits; shown once.")
        url = serializers.URLField(
            help_text="The scorer's page: `<base>/score/#<code>` (the code in the fragment)."
        )
        created_at = serializers.DateTimeField()

    @extend_schema_serializer(component_name="ScorerLinks")
    class ListSerializer(serializers.Serializer):
        links = ScorerLinkOutputSerializer(many=True)

    @extend_schema(**docs.ISSUE_DOCS, responses=docs.issue_responses(IssuedSerializer))
    def post(self, request: Request, match_id: int) -> Response:
        issued = scorer_link_issue(match_id=match_id, player=self.player(request))
        base = settings.SCORER_LINK_BASE_URL or request.build_absolute_uri("/")
        body = {
            "id": issued.link.pk,
            "code": issued.code,
            "url": scorer_link_url(base=base, code=issued.code),
            "created_at": issued.link.created_at,
        }
        return Response(self.IssuedSerializer(body).data, status=HTTPStatus.CREATED)

    @extend_schema(**docs.LIST_DOCS, responses=docs.list_responses(ListSerializer))
    def get(self, request: Request, match_id: int) -> Response:
        links = scorer_links_of(match_id=match_id, player=self.player(request))
        return Response(self.ListSerializer({"links": links}).data)


class ScorerLinkRevokeApi(GameApi):
    """Revoke a scorer link: its code is refused (401) from the next request on."""

    @extend_schema(**docs.REVOKE_DOCS, responses=docs.REVOKE_RESPONSES)
    def delete(self, request: Request, match_id: int, link_id: int) -> Response:
        scorer_link_revoke(match_id=match_id, player=self.player(request), link_id=link_id)
        return Response(status=HTTPStatus.NO_CONTENT)


@extend_schema_serializer(component_name="ScorerEvent")
class ScorerEventSerializer(serializers.Serializer):
    competition_id = serializers.IntegerField()
    name = serializers.CharField()
    stage = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    clock = WallClockSerializer(
        allow_null=True, help_text="The stage clock, as the wall shows it; null: none."
    )


class ScorerContextApi(ScorerOrPlayerApi):
    """What the scorer code sent (`Authorization: Scorer <code>`) opens: its match's id and
    game, and the competition, stage and table it is played at, if any. The scorer's page
    (`/score/#<code>`) starts here; an unknown or revoked code is the 401 of every table view."""

    @extend_schema_serializer(component_name="ScorerContext")
    class OutputSerializer(serializers.Serializer):
        match_id = serializers.IntegerField()
        variant = serializers.CharField()
        event = ScorerEventSerializer(allow_null=True)
        now = serializers.DateTimeField(help_text="The server's time: count a clock down from it.")

    @extend_schema(**docs.CONTEXT_DOCS, responses=docs.context_responses(OutputSerializer))
    def get(self, request: Request) -> Response:
        context = scorer_context(caller=self.caller(request))
        return Response(self.OutputSerializer(context).data, headers={"Cache-Control": "no-store"})
