"""The engine's messages (``games.engine.text.Text``) in the reader's language.

The engine stays pure and speaks English; this is where its messages are translated, as a problem
document is built or rendered (chickenfoot/problems.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext

from games.engine.text import Text


def localized(message: Any) -> Any:
    """``message`` in the active language when it is an engine ``Text`` or a lazy translation;
    anything else as it is."""
    if isinstance(message, Text):
        if message.parts:
            return message.sep.join(localized(part) for part in message.parts)
        params = {name: localized(value) for name, value in message.params.items()}
        translated = gettext(message.template)
        return translated % params if params else translated
    if isinstance(message, Promise):
        return str(message)
    return message
