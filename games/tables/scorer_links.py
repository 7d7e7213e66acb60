"""Scorer links: a capability to score one table match, for a phone at the table.

The match's creator issues a link (``scorer_link_issue``): a code of ``SCORER_CODE_LENGTH``
characters from the claim codes' alphabet (about 50 bits), shown once, kept only as its hash
(``games.tables.claims.code_hash``). Whoever sends it (``Authorization: Scorer <code>``) is a
``ScorerPrincipal``: it may enter that match's scores and read that match, nothing else, until
the link is revoked (``scorer_link_revoke``).

A link of a table of an event (a tournament's stage) is made when the stage starts, and its
code must be printable on the table's card at any time: such a link has a random ``salt``, and
its code is derived (``scorer_link_code``) as an HMAC of the link's id and salt under the
server's ``SECRET_KEY`` (or one of ``SECRET_KEY_FALLBACKS``), mapped to the same alphabet. Only
its hash is stored, as for any link; once no key derives it any more (the secret was replaced),
it cannot be printed and the table needs a new link.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from games.models import Match, Player
from games.problems import NotCreator, NotScorer, NotTableMatch, ScorerLinkNotFound
from games.selectors import match_get
from games.tables.claims import CODE_ALPHABET, code_hash
from games.tables.models import ScorerLink
from scoring.competition_models import CompetitionMatch

#: 10 characters of a 31-letter alphabet: about 50 bits, with ``scorer_guess`` throttling guesses.
SCORER_CODE_LENGTH = 10
#: ``last_used_at`` is written at most this often per link.
LAST_USED_EVERY = timedelta(minutes=1)
#: What sets the HMAC of a derived code apart from the secret's other uses.
DERIVED_CODE_KEY_SALT = "chickenfoot.scorer-link-code"


@dataclass(frozen=True)
class ScorerPrincipal:
    """Who sent a scorer link's code: no account, the right to score one match.

    It stands in ``request.user`` (authenticated, never staff), so DRF's permission checks
    pass; the table views then ask ``scorer_check`` about the one match it opens.
    """

    link_id: int
    match_id: int
    is_authenticated: bool = field(default=True, init=False)
    is_anonymous: bool = field(default=False, init=False)
    is_staff: bool = field(default=False, init=False)
    is_active: bool = field(default=True, init=False)

    @property
    def pk(self) -> str:
        """Not a user's id: throttles counting per user count per link."""
        return f"scorer-link-{self.link_id}"


@dataclass(frozen=True)
class IssuedScorerLink:
    link: ScorerLink
    code: str


def scorer_link_manager_check(*, match: Match, player: Player) -> None:
    """Refuse (403 ``not_creator``) anyone but the match's creator, and (409
    ``not_table_match``) a match played online: only a table match has scorer links."""
    if match.created_by_id != player.pk:
        raise NotCreator(
            _("Only the creator of match %(match)s manages its scorer links.") % {"match": match.pk}
        )
    if match.play != Match.Play.TABLE:
        raise NotTableMatch(
            _("Match %(match)s is played online: it has no scorer links.") % {"match": match.pk}
        )


def scorer_link_issue(*, match_id: int, player: Player) -> IssuedScorerLink:
    """A new scorer link for ``match_id``; its code is returned here and never again."""
    match = match_get(match_id=match_id)
    scorer_link_manager_check(match=match, player=player)
    if CompetitionMatch.objects.filter(match_id=match.pk, stage__isnull=False).exists():
        return event_link_issue(match=match, created_by=player)  # printable on its card
    code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(SCORER_CODE_LENGTH))
    link = ScorerLink.objects.create(match=match, code_hash=code_hash(code), created_by=player)
    return IssuedScorerLink(link=link, code=code)


def _derived(*, link_id: int, salt: str, secret: str) -> str:
    """The code of link ``link_id`` with ``salt`` under ``secret``: its HMAC in the alphabet."""
    digest = salted_hmac(
        DERIVED_CODE_KEY_SALT, f"{link_id}:{salt}", secret=secret, algorithm="sha256"
    ).digest()
    number = int.from_bytes(digest, "big")
    letters = []
    for _position in range(SCORER_CODE_LENGTH):
        number, index = divmod(number, len(CODE_ALPHABET))
        letters.append(CODE_ALPHABET[index])
    return "".join(letters)


def event_link_issue(*, match: Match, created_by: Player) -> IssuedScorerLink:
    """A new link of an event's table whose code can be derived again (``scorer_link_code``).
    No check: the caller is the stage's start, or ``scorer_link_issue`` after its checks."""
    salt = secrets.token_hex(16)
    with transaction.atomic():
        # the id goes into the code: the row is made first, its hash set once the id is known
        link = ScorerLink.objects.create(
            match=match, code_hash=f"pending-{salt}", salt=salt, created_by=created_by
        )
        code = _derived(link_id=link.pk, salt=salt, secret=settings.SECRET_KEY)
        link.code_hash = code_hash(code)
        link.save(update_fields=["code_hash"])
    return IssuedScorerLink(link=link, code=code)


def event_links_issue(*, matches: list[Match], created_by: Player) -> list[IssuedScorerLink]:
    """``event_link_issue`` for each of ``matches`` (a stage's new tables), in order, in two
    statements: the rows, then their hashes once their ids are known."""
    salts = [secrets.token_hex(16) for _match in matches]
    with transaction.atomic():
        links = ScorerLink.objects.bulk_create(
            ScorerLink(match=match, code_hash=f"pending-{salt}", salt=salt, created_by=created_by)
            for match, salt in zip(matches, salts, strict=True)
        )
        codes = [
            _derived(link_id=link.pk, salt=link.salt, secret=settings.SECRET_KEY) for link in links
        ]
        for link, code in zip(links, codes, strict=True):
            link.code_hash = code_hash(code)
        ScorerLink.objects.bulk_update(links, ["code_hash"])
    return [IssuedScorerLink(link=link, code=code) for link, code in zip(links, codes, strict=True)]


def scorer_link_code(link: ScorerLink) -> str | None:
    """The code of a derived link, again; ``None`` for a link shown once, or when no key the
    server has (``SECRET_KEY``, ``SECRET_KEY_FALLBACKS``) derives the code its hash is of."""
    if not link.salt:
        return None
    for secret in [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]:
        code = _derived(link_id=link.pk, salt=link.salt, secret=secret)
        if code_hash(code) == link.code_hash:
            return code
    return None


def scorer_links_of(*, match_id: int, player: Player) -> list[ScorerLink]:
    """The match's scorer links, oldest first (their codes are not kept)."""
    match = match_get(match_id=match_id)
    scorer_link_manager_check(match=match, player=player)
    return list(ScorerLink.objects.filter(match=match).order_by("pk"))


def scorer_link_revoke(*, match_id: int, player: Player, link_id: int) -> None:
    """Revoke one of ``match_id``'s links: its code is refused from now on (revoking twice is
    harmless). An id that is not one of this match's links is 404 ``scorer_link_not_found``."""
    match = match_get(match_id=match_id)
    scorer_link_manager_check(match=match, player=player)
    with transaction.atomic():
        link = ScorerLink.objects.select_for_update().filter(pk=link_id, match=match).first()
        if link is None:
            raise ScorerLinkNotFound(
                _("Match %(match)s has no scorer link %(link_id)s.")
                % {"match": match.pk, "link_id": link_id}
            )
        if link.revoked_at is None:
            link.revoked_at = timezone.now()
            link.save(update_fields=["revoked_at"])


def scorer_principal_for(*, code: str) -> ScorerPrincipal | None:
    """The principal of a live link with ``code``, or ``None`` (unknown or revoked)."""
    link = (
        ScorerLink.objects.filter(code_hash=code_hash(code), revoked_at__isnull=True)
        .only("pk", "match_id", "last_used_at")
        .first()
    )
    if link is None:
        return None
    now = timezone.now()
    if link.last_used_at is None or now - link.last_used_at >= LAST_USED_EVERY:
        ScorerLink.objects.filter(pk=link.pk).update(last_used_at=now)
    return ScorerPrincipal(link_id=link.pk, match_id=link.match_id)


def scorer_link_url(*, base: str, code: str) -> str:
    """The page a scorer opens (what the QR code holds): ``<base>/score/#<code>``. The code is
    the address's fragment, which browsers never send to a server: it reaches no access log and
    no proxy, and goes out only in the API calls' Authorization header."""
    return f"{base.rstrip('/')}/score/#{code}"


def match_for_scorer(*, match_id: int, scorer: ScorerPrincipal) -> Match:
    """The match a scorer link opens, to read: 404 if there is no ``match_id``, 403
    ``not_scorer`` if the link opens another one."""
    match = match_get(match_id=match_id)
    if match.pk != scorer.match_id:
        raise NotScorer(
            _("This scorer link opens another match than match %(match)s.") % {"match": match.pk}
        )
    return match
