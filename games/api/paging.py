"""Paging of the match lists: DRF's page-number pagination, documented in the schema."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination


class MatchPagination(PageNumberPagination):
    """``?page=2&page_size=20``: pages of 50 by default, at most 100.

    The answer is ``{"count", "next", "previous", "results"}``; a page past the end is a 404.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100
