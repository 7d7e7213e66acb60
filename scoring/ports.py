"""What scoring needs from the games app, as a port games fills in (scoring never imports games).

``games.apps.GamesConfig.ready`` registers the implementation with ``register_games``; scoring's
services reach it through ``games_port()``. The port speaks in ids and plain values only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class PlayerRef:
    """The caller as scoring needs to know them."""

    id: int
    display_name: str
    organises: bool


@dataclass(frozen=True)
class EntrantPlayer:
    """A player an organiser may enter: a person with an account (``human``) or a guest."""

    id: int
    name: str
    kind: str


class FieldsError(Protocol):
    """An error that names the fields it is about: ``errors`` (field -> messages) and the rule
    each broke (``rules``); raised as it is, it is a problem response of its own."""

    detail: str
    errors: dict[str, list[str]] | None
    rules: dict[str, str]


class GamesPort(Protocol):
    """The games app's operations scoring calls."""

    def options_error(
        self, *, variant: str, seat_counts: list[int], options: dict[str, Any]
    ) -> FieldsError | None:
        """What is wrong with the house options at any of these table sizes, every option at
        once (an ``Exception`` to raise: 400 ``invalid_option``), or ``None``."""

    def resolve_options(
        self, *, variant: str, seat_count: int, options: dict[str, Any]
    ) -> dict[str, Any]:
        """House options validated and completed (docs/rules.md §4); a bad option raises (400)."""

    def authenticators(self) -> list[Any]:
        """The authentication the games API uses, for scoring's views to use the same."""

    def bot_levels(self) -> tuple[int, ...]:
        """The bot levels a seat may ask for."""

    def player_for_user(self, *, user: Any) -> PlayerRef:
        """The player of an authenticated user (made on first use, as games does)."""

    def profile_hidden(self, *, player_id: int, user: Any) -> bool:
        """Is the profile of ``player_id`` hidden from the authenticated ``user`` (their
        figures not shown to them: the player's ``profile_visibility``)? An id that names no
        player is not hidden (the caller answers its own 404)."""

    def hidden_profiles(self, *, player_ids: set[int], user: Any) -> set[int]:
        """Which of ``player_ids`` hide their profile from the authenticated ``user``."""

    def avatar_urls(self, *, player_ids: set[int]) -> dict[int, dict[str, str]]:
        """Per player id (those that name a player): ``avatar_url`` and ``avatar_small_url``,
        absolute on the host of the request being answered, in one query."""

    def match_create_seated(
        self,
        *,
        organiser_id: int,
        variant: str,
        options: dict[str, Any],
        player_ids: list[int | None],
        bot_level: int,
        turn_seconds: int | None,
    ) -> int:
        """Create and start a match with these players in seat order (``None``: a bot of
        ``bot_level``); return its id. Runs in the caller's transaction; bots' turns are
        enqueued on commit."""

    def table_match_create_seated(
        self, *, organiser_id: int, variant: str, options: dict[str, Any], player_ids: list[int]
    ) -> int:
        """Create a table match (docs/tables.md) with these players in seat order, created by
        the organiser (who may enter its scores, as its seated players may), with one scorer
        link whose code can be printed again; return its id. Runs in the caller's transaction."""

    def table_matches_create_seated(
        self,
        *,
        organiser_id: int,
        variant: str,
        options: dict[str, Any],
        tables: list[list[int]],
    ) -> list[int]:
        """``table_match_create_seated`` for each of ``tables`` (player ids in seat order), in
        order, written together (a stage's tables); their ids, in the same order."""

    def tables_scorer_links(
        self, *, match_ids: list[int], request_base: str
    ) -> dict[int, dict[str, Any]]:
        """Per match id, its newest scorer link: ``link_id``, ``code`` and ``url`` (absolute,
        from ``request_base`` unless the settings name another; ``None`` when it cannot be
        printed), ``revoked`` and ``needs_new_link``."""

    def table_cards_pdf(
        self,
        *,
        event: str,
        stage: int,
        tables: list[tuple[int, int]],
        request_base: str,
        divisions: dict[int, str] | None = None,
    ) -> bytes:
        """The table cards of a stage as a PDF: a page per (table number, match id), in order,
        with its seats, a score grid, signature lines and its scorer link's QR code; at an
        event with divisions, each table's division (``divisions``, by table number)."""

    def pairings_pdf(self, *, event: str, stage: int, sections: list[dict[str, Any]]) -> bytes:
        """A stage's pairings sheet as a PDF: per section (an event without divisions has one),
        its ``division`` (``None``: none), ``tables`` (each (table number, names in seat
        order)) and ``byes`` (names), each section on pages of its own."""

    def standings_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        """The printed standings as a PDF (``scoring.competitions.sheets.standings_sheet``
        says what ``sheet`` holds: names and figures, nothing private)."""

    def crosstable_pdf(self, *, sheet: dict[str, Any]) -> bytes:
        """The printed crosstable as a PDF, A4 landscape (``sheet``: the crosstable document,
        ``scoring.competitions.crosstable``)."""

    def tables_progress(self, *, match_ids: list[int]) -> dict[int, dict[str, Any]]:
        """Per match id: ``seats`` (``position``, ``player_id``, ``name``), ``rounds_entered``,
        ``rounds`` (to play), ``finished``, ``confirmed`` and ``disputed`` (rounds)."""

    def matches_lock(self, *, match_ids: list[int]) -> None:
        """Lock these matches' rows, in id order, to the end of the caller's transaction (a
        stage's tables, before its competition's row: the order every writer keeps)."""

    def tables_scored(self, *, match_ids: list[int]) -> set[int]:
        """The matches of ``match_ids`` that have a round's scores (online: a move played, or a
        round that ended as it was dealt)."""

    def table_match_reseat(
        self, *, match_id: int, player_ids: list[int], options: dict[str, Any]
    ) -> None:
        """Seat ``player_ids`` (entrants: accounts or guests) at table match ``match_id`` in
        that order, in place of whoever sat there (none of its rounds scored: the caller
        checked, holding its lock); its options resolved again for the new number of seats,
        its version moved on, its scorer links kept. Those newly seated are told their
        table; a public wall is told after commit."""

    def table_matches_delete(self, *, match_ids: list[int]) -> None:
        """Delete these matches of a competition's stage (a table match with no round scored,
        an online match with no move played: the caller checked, holding their locks), with
        their seats, rounds, scorer links and the inbox entries that seated their players
        there; after commit the sockets open on an online one get a ``match_cancelled`` frame
        and close."""

    def wall_seating_changed(self, *, competition_id: int) -> None:
        """After commit: a public competition's wall is told its stages' tables changed."""

    def stage_clock_changed(
        self, *, competition_id: int, number: int, match_ids: list[int]
    ) -> None:
        """After commit: stage ``number``'s clock was started or stopped; the competition's
        wall (when it is public) and the sockets of the stage's tables (``match_ids``) get a
        ``stage_clock`` frame with the clock and the server's time."""

    def players_find(
        self, *, player_ids: list[int], usernames: list[str]
    ) -> tuple[dict[int, EntrantPlayer], dict[str, EntrantPlayer]]:
        """The players an organiser may enter, by id (people with an account, and guests) and
        by username (people with an account; as written, without regard to case), each keyed
        as asked. A bot, a deleted account or an unknown name is left out."""

    def guest_name_check(self, *, name: str) -> tuple[str, str | None]:
        """A guest's name as it would be kept, and why it cannot be one (``None``: it can)."""

    def guests_create(self, *, names: list[str]) -> list[int]:
        """A guest player (no account) for each name, checked by ``guest_name_check``; their
        ids in order. Runs in the caller's transaction."""

    def wall_closed(self, *, competition_id: int) -> None:
        """After commit: competition ``competition_id`` is private again; its wall's sockets are
        closed (4404)."""

    def results_written(self, *, match_id: int) -> None:
        """In the caller's transaction, which holds the match row's lock: match ``match_id``'s
        results were written (or written again after a correction), so its version moves on
        (its ETag changes; a write answering the version before still stands)."""

    def wall_changed(self, *, match_id: int) -> None:
        """After commit: match ``match_id``'s results count in the standings; the wall of the
        public competition it counts in (if any) is told (``standings_changed``)."""


_port: GamesPort | None = None


def register_games(port: GamesPort) -> None:
    """Called once by the games app when Django starts."""
    global _port  # the one registration point, set at start-up
    _port = port


def games_port() -> GamesPort:
    """The registered games port (the games app is always installed beside scoring)."""
    if _port is None:
        raise RuntimeError("The games app has not registered its port: is it installed?")
    return _port
