"""Django's e-mail settings from the environment: ``EMAIL_URL``, or ``EMAIL_HOST`` and its kin.

``EMAIL_URL`` names the backend and the server in one value:

- ``smtp://user:password@host:587`` (plain, or upgraded with ``?tls=1``), ``smtp+tls://…``
  (STARTTLS, port 587 by default), ``smtp+ssl://…`` (TLS from the first byte, port 465);
  the user and password are URL-encoded (``%40`` for ``@``);
- ``console://`` (each mail printed on the process's standard output), ``locmem://`` (kept in
  memory: tests), ``dummy://`` (dropped).

Without ``EMAIL_URL``, ``EMAIL_HOST`` (with ``EMAIL_PORT``, ``EMAIL_HOST_USER``,
``EMAIL_HOST_PASSWORD``, ``EMAIL_USE_TLS``, ``EMAIL_USE_SSL``) selects Django's SMTP backend;
with neither, the embedded default prints mails on the console and production
(``DJANGO_ENV=production``) drops them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"

_OTHER_SCHEMES = {"console": CONSOLE, "locmem": LOCMEM, "dummy": DUMMY}
_TRUE = {"1", "true", "yes", "on"}


def email_settings_from_url(url: str) -> dict[str, Any]:
    """The ``EMAIL_*`` settings ``url`` names; ``ImproperlyConfigured`` for one it cannot be."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme in _OTHER_SCHEMES:
        return {"EMAIL_BACKEND": _OTHER_SCHEMES[scheme]}
    if scheme not in {"smtp", "smtp+tls", "smtp+ssl"}:
        raise ImproperlyConfigured(
            f"EMAIL_URL: unknown scheme {parts.scheme!r} (smtp, smtp+tls, smtp+ssl, console, "
            "locmem or dummy)."
        )
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    use_ssl = scheme == "smtp+ssl" or query.get("ssl", "").lower() in _TRUE
    use_tls = not use_ssl and (scheme == "smtp+tls" or query.get("tls", "").lower() in _TRUE)
    if not parts.hostname:
        raise ImproperlyConfigured("EMAIL_URL: an SMTP URL needs a host (smtp://host:port).")
    try:
        port = parts.port
    except ValueError:
        raise ImproperlyConfigured("EMAIL_URL: the port is not a number.") from None
    return {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }
