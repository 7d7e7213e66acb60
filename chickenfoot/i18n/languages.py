"""The five languages the service speaks, and what Django lacks to know two of them.

Django's own table (``django.conf.locale.LANG_INFO``) has no Lao and no Cebuano: ``add_lang_info``
adds them, so that ``get_language_info`` names every language of ``LANGUAGES`` (the picker shows
each by its own name).
"""

from __future__ import annotations

from django.conf import locale

#: The source language: what the code's messages are written in, and the last resort.
DEFAULT_LANGUAGE = "en"

#: Codes and English names, as settings.LANGUAGES wants them (the picker shows ``name_local``).
LANGUAGES: list[tuple[str, str]] = [
    ("en", "English"),
    ("lo", "Lao"),
    ("th", "Thai"),
    ("hy", "Armenian"),
    ("ceb", "Cebuano"),
]

LANGUAGE_CODES: tuple[str, ...] = tuple(code for code, _ in LANGUAGES)

#: Each language by its own name, as the picker shows it.
NATIVE_NAMES: dict[str, str] = {
    "en": "English",
    "lo": "ລາວ",
    "th": "ไทย",
    "hy": "Հայերեն",
    "ceb": "Cebuano",
}

#: What Django's LANG_INFO lacks.
EXTRA_LANG_INFO: dict[str, dict[str, object]] = {
    "lo": {"bidi": False, "code": "lo", "name": "Lao", "name_local": "ລາວ"},
    "ceb": {"bidi": False, "code": "ceb", "name": "Cebuano", "name_local": "Cebuano"},
}


def add_lang_info() -> None:
    """Teach Django the languages its table lacks (idempotent; run from the settings)."""
    for code, info in EXTRA_LANG_INFO.items():
        locale.LANG_INFO.setdefault(code, info)
