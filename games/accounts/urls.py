"""The pages account mails link to, mounted under ``/account/`` by the root urls."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.accounts.link_pages import reset_password_page, verify_email_page

urlpatterns: list[URLPattern] = [
    path("verify-email", verify_email_page, name="account-verify-email"),
    path("reset-password", reset_password_page, name="account-reset-password"),
]
