"""Names people choose: usernames compared without regard to case or Unicode form, and display
names that can be seen, read in order, and cannot pass for a bot's.

Pure functions over strings (no database): the services and the migration that keys existing
accounts share them.
"""

from __future__ import annotations

import re
import unicodedata

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

#: The longest username (after NFKC normalisation) and display name.
USERNAME_MAX_LENGTH = 64
DISPLAY_NAME_MAX_LENGTH = 64

#: Bots' names, by level: a bot seat shows "<name> (level <n>)".
#: The bots' names, stored in English (``Player.display_name``, "Shark bot (level 3)");
#: ``bot_display_name`` gives one in the active language.
BOT_NAMES = {
    1: gettext_noop("Rookie bot"),
    2: gettext_noop("Greedy bot"),
    3: gettext_noop("Shark bot"),
    4: gettext_noop("Strong bot"),
}

#: Letters from other scripts (and digits) that read as Latin ones in a name: enough to catch
#: "Shark bot" written with a Cyrillic a and o, or "R00kie b0t".
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic: a ve ie ka em en o er es te u ha dze i je komi-de script-g palochka qa we
        **dict(zip("\u0430\u0432\u0435\u043a\u043c\u043d\u043e\u0440", "abekmhop", strict=True)),
        **dict(zip("\u0441\u0442\u0443\u0445\u0455\u0456\u0458\u0501", "ctyxsijd", strict=True)),
        **dict(zip("\u0261\u04cf\u051b\u051d", "glqw", strict=True)),
        # Greek: alpha beta epsilon iota kappa nu omicron rho tau upsilon chi
        **dict(zip("\u03b1\u03b2\u03b5\u03b9\u03ba\u03bd", "abeikv", strict=True)),
        **dict(zip("\u03bf\u03c1\u03c4\u03c5\u03c7", "optux", strict=True)),
        # digits and signs used as letters
        **dict(zip("01345789$@|!", "oleastbgsali", strict=True)),
    }
)
_NOT_LETTERS = re.compile(r"[^a-z]+")

#: Bidirectional controls: embeddings, overrides, isolates and the implicit marks. A right-to-left
#: override shows "Ada\u202enoom" as "Adamoon" and reverses the text after the name too.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f"
    + "".join(map(chr, range(0x202A, 0x202F)))  # LRE RLE PDF LRO RLO
    + "".join(map(chr, range(0x2066, 0x206A)))  # LRI RLI FSI PDI
)
#: Combining marks one character may carry. Real names stack two or three (Thai and Lao vowel
#: and tone marks, Vietnamese, Hebrew points, Devanagari signs, Tibetan stacks).
MAX_COMBINING_RUN = 4
#: Letters and symbols that draw nothing: Hangul fillers and the blank Braille pattern.
_BLANK_GRAPHICS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: What a visible character is: a letter, digit, punctuation mark or symbol.
_VISIBLE_CATEGORIES = ("L", "N", "P", "S")
#: Joiners that belong inside a name (Persian, Indic conjuncts, emoji sequences): no mark's run
#: is broken by them, and they are not visible themselves.
_JOINERS = frozenset("\u200c\u200d")
#: A bot's name, squeezed: "Shark bot" -> "sharkbot"; and what every bot name has in it.
_BOT_SKELETONS = tuple(_NOT_LETTERS.sub("", name.lower()) for name in BOT_NAMES.values())
_BOT_LEVEL = "botlevel"


def username_normalise(username: str) -> str:
    """The username as it is stored: Unicode NFKC (as Django's own accounts normalise it)."""
    return unicodedata.normalize("NFKC", username)


def username_key(username: str) -> str:
    """What two usernames must not share: NFKC, case-folded, NFKC again ("ADA" -> "ada")."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def name_skeleton(name: str) -> str:
    """A name reduced to how it reads: NFKC, case-folded, accents and look-alikes mapped to
    Latin letters, everything else (spaces, punctuation, brackets) dropped."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    decomposed = unicodedata.normalize("NFKD", folded)
    unaccented = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_LETTERS.sub("", unaccented.translate(_CONFUSABLES))


def looks_like_a_bot(name: str) -> bool:
    """Would ``name`` pass for a bot's: starting or ending with a bot's name ("Shark bot",
    "SHARK-B0T fan", "the Rookie Bot"), or "bot (level ...)" as every bot's name has?"""
    skeleton = name_skeleton(name)
    if _BOT_LEVEL in skeleton:
        return True
    return any(skeleton.startswith(bot) or skeleton.endswith(bot) for bot in _BOT_SKELETONS)


def bot_display_name(level: int) -> str:
    """Bot ``level``'s name in the active language ("Shark bot (level 3)" in English)."""
    return _("%(name)s (level %(level)s)") % {"name": _(BOT_NAMES[level]), "level": level}


#: The bots' names as stored, and their levels.
_STORED_BOT_NAMES = {f"{name} (level {level})": level for level, name in BOT_NAMES.items()}


def shown_name(name: str) -> str:
    """A display name as a page or picture shows it: a bot's in the active language, any
    other as it is."""
    level = _STORED_BOT_NAMES.get(name)
    return name if level is None else bot_display_name(level)


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def display_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a display name as text (its length and whether it passes for a
    bot's are checked apart), or ``None``.

    Refused: a name with no visible character (only spaces, format or control characters and
    combining marks: ``"\u200d"``), a bidirectional control anywhere (U+202A-U+202E,
    U+2066-U+2069, U+200E, U+200F, U+061C), a control character (NUL, a newline...), a lone
    surrogate, and more than ``MAX_COMBINING_RUN`` combining marks on one character once
    decomposed (NFD: "ö" is an o and one mark). Names in
    every script, with their own marks, pass ("สมชาย", "ສົມສັກ", "Արամ", "محمد", "मोहन").
    """
    visible = False
    run = 0
    # decomposed, so that a mark counts alike whether a letter was composed with it ("ö") or not
    for char in unicodedata.normalize("NFD", name):
        category = unicodedata.category(char)
        if char in BIDI_CONTROLS:
            return _(
                "A display name may not hold a bidirectional control character "
                "(%(char)s): it reorders the text around it."
            ) % {"char": _code_point(char)}
        if category == "Cc":
            return _("A display name may not hold a control character (%(char)s).") % {
                "char": _code_point(char)
            }
        if category == "Cs":
            return _("A display name may not hold a lone surrogate (%(char)s).") % {
                "char": _code_point(char)
            }
        if category.startswith("M"):
            run += 1
            if run > MAX_COMBINING_RUN:
                return _(
                    "A display name may stack at most %(most)s combining marks on one character."
                ) % {"most": MAX_COMBINING_RUN}
        elif char not in _JOINERS:
            run = 0
            visible = visible or (
                category.startswith(_VISIBLE_CATEGORIES) and char not in _BLANK_GRAPHICS
            )
    if not visible:
        return _(
            "A display name needs a visible character: a letter, digit, punctuation mark or symbol."
        )
    return None
