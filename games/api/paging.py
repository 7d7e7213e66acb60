"""Paging of the match lists: DRF's page-number pagination, documented in the schema."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import PageNumberPagination

from chickenfoot.query import StrictPageSize


class MatchPagination(StrictPageSize, PageNumberPagination):
    """``?page=2&page_size=20``: pages of 50 by default, at most 100.

    The answer is ``{"count", "next", "previous", "results"}``; a page past the end is a 404.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100


#: The paging parameters, for the schema (the lists are plain views, which spectacular does not
#: describe as paginated by itself).
PAGE_PARAMETERS = [
    OpenApiParameter(
        "page", int, OpenApiParameter.QUERY, required=False, description="1 is the first page."
    ),
    OpenApiParameter(
        "page_size",
        {"type": "integer", "minimum": 1, "maximum": MatchPagination.max_page_size},
        OpenApiParameter.QUERY,
        required=False,
        description=f"Rows a page: {MatchPagination.page_size} by default, at most "
        f"{MatchPagination.max_page_size}.",
    ),
]
