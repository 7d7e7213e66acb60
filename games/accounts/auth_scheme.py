"""The token scheme as the OpenAPI schema declares it: HTTP bearer authentication.

Generated clients (openapi-python-client's ``AuthenticatedClient``, openapi-fetch with a bearer
header) then authenticate with no hand work. The server takes ``Token <key>`` as well.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class PlayerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "games.accounts.authentication.PlayerTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "The token from `POST /api/players` or `POST /api/auth/token`, sent as "
                "`Authorization: Bearer <token>` (`Authorization: Token <token>` works too). "
                "It expires (the login's `expiry`) and logout revokes it."
            ),
        }


class ScorerCodeScheme(OpenApiAuthenticationExtension):
    target_class = "games.accounts.scorer_authentication.ScorerAuthentication"
    name = "scorerCode"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "A scorer link's code, sent as `Authorization: Scorer <code>`: it opens one "
                "table match's score entry, match view and round list, nothing else "
                '(docs/tables.md, "Scorer links").'
            ),
        }
