"""The OpenAPI declarations of ``scoring.api.players``'s views: what their ``extend_schema``
calls name."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter

from chickenfoot.openapi import NOT_AUTHENTICATED
from scoring.api.common import BAD_FILTER, PLAYER_NOT_FOUND, PROFILE_HIDDEN
from scoring.api.history import PLAYER_ID


def player_statistics_responses(player_statistics_serializer: Any) -> Any:
    """The answers of ``PlayerStatisticsApi``, given the view's own serializer."""
    return {
        200: player_statistics_serializer,
        400: BAD_FILTER,
        401: NOT_AUTHENTICATED,
        403: PROFILE_HIDDEN,
        404: PLAYER_NOT_FOUND,
    }


def head_to_head_parameters(variant_query_serializer: Any) -> Any:
    """The parameters of ``HeadToHeadApi``, given the view's own serializer."""
    return [
        PLAYER_ID,
        OpenApiParameter("opponent_id", int, OpenApiParameter.PATH, description="The other."),
        variant_query_serializer,
    ]


def head_to_head_responses(bad_head_to_head: Any, head_to_head_serializer: Any) -> Any:
    """The answers of ``HeadToHeadApi``, given its 400 (which names the view's own message) and
    its serializer."""
    return {
        200: head_to_head_serializer,
        400: bad_head_to_head,
        401: NOT_AUTHENTICATED,
        403: PROFILE_HIDDEN,
        404: PLAYER_NOT_FOUND,
    }
