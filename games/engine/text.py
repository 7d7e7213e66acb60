"""The engine's messages: English text that keeps what a translation needs.

The engine imports nothing from Django, so it cannot translate. A message it gives is a ``Text``:
a ``str`` holding the English sentence, as every caller and test reads it, that also keeps its
template (named ``%(name)s`` placeholders) and the values put into it. The API renders it in the
reader's language (``chickenfoot.i18n.engine_text.localized``). ``N_`` marks a template for the
message catalog (it is one of Babel's default keywords).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class Text(str):
    """English text made from ``template`` and ``params``, or from ``parts`` joined by ``sep``."""

    template: str
    params: Mapping[str, object]
    parts: tuple[str, ...]
    sep: str

    def __new__(cls, template: str, params: Mapping[str, object] | None = None) -> Text:
        params = dict(params or {})
        text = super().__new__(cls, template % params if params else template)
        text.template, text.params, text.parts, text.sep = template, params, (), ""
        return text

    def __reduce__(self) -> tuple[object, ...]:
        return (Text, (self.template, self.params))


def N_(template: str, /, **params: object) -> Text:  # noqa: N802 - the catalog's marker
    """The English text of ``template`` with ``params``, remembering both."""
    return Text(template, params)


def joined(parts: Iterable[str], sep: str = " ") -> Text:
    """Several messages as one (each translated on its own)."""
    listed = tuple(parts)
    text = Text(sep.join(listed))
    text.parts, text.sep = listed, sep
    return text
