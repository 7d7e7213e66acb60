"""The pages an account mail's link opens in a browser: ``/account/verify-email`` and
``/account/reset-password``.

A phone with the app opens these links in the app instead (an app claims them as its own
links: Android App Links, iOS universal links), and the app confirms them through the API
(``POST /api/players/me/email/verify``, ``POST /api/auth/password-reset/confirm``). In a browser
the page says so and shows the link's code for the app. A page changes nothing: opening a link
(a mail scanner fetching it ahead of its reader) neither verifies an address nor uses a reset
link. What the link's query holds is shown as text (the template escapes it).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

#: The longest code a page shows (a real one is well under it; anything longer is not one).
MAX_SHOWN = 200


def _param(request: HttpRequest, name: str) -> str:
    return request.GET.get(name, "")[:MAX_SHOWN]


@require_safe
def verify_email_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/link_page.html",
        {
            "title": _("Confirm your e-mail address"),
            "step": _(
                "Open this link on your phone, in the Chickenfoot app, signed in to your "
                "account: the app confirms the address."
            ),
            "codes": [(_("Code"), _param(request, "token"))],
        },
    )


@require_safe
def reset_password_page(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "accounts/link_page.html",
        {
            "title": _("Reset your password"),
            "step": _(
                "Open this link on your phone, in the Chickenfoot app: the app asks for "
                "your new password. The link works once."
            ),
            "codes": [
                (_("Account"), _param(request, "uid")),
                (_("Code"), _param(request, "token")),
            ],
        },
    )
