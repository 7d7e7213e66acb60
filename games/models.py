"""Rows the games app keeps: players, matches, their seats, rounds and the move log.

A match's live engine state is one JSON snapshot on its ``Match`` row, so a move loads and saves
exactly one snapshot (ARCHITECTURE.md, principle 2). Each ``Round`` keeps the snapshot it started
from; ``Move`` is the append-only log. Replaying the log from the match's seed reproduces every
snapshot (``python manage.py verify_match``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from chickenfoot.i18n.languages import LANGUAGES
from games.engine import CHICKENFOOT, MEXICAN_TRAIN


class Player(models.Model):
    """Someone who takes a seat: a human with a user account, a bot with a level, or a guest.

    A bot is one player per level (``bot_player``): its results and rating gather there.

    A guest is a person at a table match without an account (no user, no login): created for
    one seat, until they claim it into an account (docs/tables.md).
    """

    class Kind(models.TextChoices):
        HUMAN = "human", "Human"
        BOT = "bot", "Bot"
        GUEST = "guest", "Guest"

    class Visibility(models.TextChoices):
        """Who sees the player's profile, history, statistics and head-to-head
        (``games.profiles.visibility``)."""

        EVERYONE = "everyone", "Everyone"
        FRIENDS = "friends", "Friends"
        NOBODY = "nobody", "Nobody"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="player",
        help_text="The account of a human player; empty for a bot.",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    bot_level = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="1 (random), 2 (greedy), 3 (doubles first) or 4 (strong: searches); bots only.",
    )
    display_name = models.CharField(max_length=64)
    is_organiser = models.BooleanField(
        default=False,
        help_text="Organisers may watch and start any match (staff users are organisers too).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    email = models.EmailField(
        max_length=254,
        blank=True,
        default="",
        help_text="The account's e-mail address, as given; verified when email_verified_at is set "
        "(docs/api.md, 'E-mail, password reset and your data').",
    )
    email_verified_at = models.DateTimeField(
        null=True, blank=True, help_text="When the address was verified by its link; empty: not."
    )
    language = models.CharField(
        max_length=8,
        choices=LANGUAGES,
        blank=True,
        default="",
        db_default="",
        help_text="The language the player chose for the pages and the API's answers; empty: "
        "none (the browser's Accept-Language, then English).",
    )
    deleted_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the account was deleted: the player stays, under an anonymous name, "
        "with no user, so that results and standings stay as they were.",
    )
    profile_visibility = models.CharField(
        max_length=8,
        choices=Visibility.choices,
        default=Visibility.EVERYONE,
        db_default=Visibility.EVERYONE,
        help_text="Who sees the player's profile, history, statistics and head-to-head: "
        "everyone, friends (the player and their friends) or nobody (the player alone). "
        "Their name and avatar are shown to everyone.",
    )
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="The player's IANA time zone (Europe/Paris, Asia/Vientiane), for their quiet "
        "hours; empty: UTC.",
    )
    quiet_hours_start = models.TimeField(
        null=True,
        blank=True,
        help_text="From this time of day in the player's time zone, pushes wait in the inbox; "
        "empty (with the end): no quiet hours.",
    )
    quiet_hours_end = models.TimeField(
        null=True,
        blank=True,
        help_text="Until this time of day (the next day's if before the start), pushes wait in "
        "the inbox.",
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="human", user__isnull=False, bot_level__isnull=True)
                    | Q(kind="human", user__isnull=True, deleted_at__isnull=False)
                    | Q(kind="bot", user__isnull=True, bot_level__gte=1, bot_level__lte=4)
                    | Q(kind="guest", user__isnull=True, bot_level__isnull=True)
                ),
                name="player_human_has_user_bot_has_level",
            ),
            # one player per bot level, sat by every bot seat at that level
            models.UniqueConstraint(
                fields=["bot_level"], condition=Q(kind="bot"), name="player_one_per_bot_level"
            ),
            # one account per verified address, without regard to case
            models.UniqueConstraint(
                Lower("email"),
                condition=Q(email_verified_at__isnull=False),
                name="player_verified_email_unique",
            ),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def is_bot(self) -> bool:
        return self.kind == self.Kind.BOT

    @property
    def is_guest(self) -> bool:
        return self.kind == self.Kind.GUEST

    @property
    def organises(self) -> bool:
        """An organiser by flag, or a staff user."""
        return self.is_organiser or bool(self.user and self.user.is_staff)


class Match(models.Model):
    """One match of either game. ``state`` is the engine's full state, secrets included."""

    class Variant(models.TextChoices):
        CHICKENFOOT = CHICKENFOOT, "Chicken Foot"
        MEXICAN_TRAIN = MEXICAN_TRAIN, "Mexican Train"

    class Status(models.TextChoices):
        OPEN = "open", "Open (waiting for players)"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        ABANDONED = "abandoned", "Abandoned"

    class Play(models.TextChoices):
        ONLINE = "online", "Online (the server deals)"
        TABLE = "table", "At a table (real tiles; scores entered)"

    variant = models.CharField(max_length=16, choices=Variant.choices)
    play = models.CharField(
        max_length=8,
        choices=Play.choices,
        default=Play.ONLINE,
        help_text="online: the server deals and checks moves; table: people play with real "
        "tiles and enter each round's scores (no state, no moves).",
    )
    options = models.JSONField(help_text="The house options, resolved: every default filled in.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seat_count = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=64, help_text="Secret: never leaves the server.")
    # Bumped by the results being written too (results_version).
    version = models.PositiveIntegerField(
        default=0, help_text="Bumped by every change (join, start, move); the ETag of the match."
    )
    results_version = models.PositiveIntegerField(
        default=0,
        db_default=0,  # the release still running inserts matches without it
        help_text="The version that writing the match's results (or writing them again after a "
        "correction) moved it to; 0 before. A write answering the version just before it still "
        "stands: the results changed no score.",
    )
    moves_played = models.PositiveIntegerField(default=0)
    state = models.JSONField(null=True, blank=True, help_text="The live engine state.")
    current_round = models.ForeignKey(
        "Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    bot_seats = models.JSONField(
        default=list, blank=True, help_text="Positions held by bots (set when the match starts)."
    )
    standings = models.JSONField(null=True, blank=True, help_text="Final order (C-WIN).")
    turn_deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the human to move runs out of time (option turn_seconds); else empty.",
    )
    turn_warn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the human to move is warned that time is running out; emptied when "
        "the warning is sent (once per turn), empty without a clock.",
    )
    timeouts_in_row = models.JSONField(
        default=list,
        blank=True,
        help_text="Per seat: turns in a row the server played for it when its clock ran out.",
    )
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_matches")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    bot_turn_since = models.DateTimeField(
        null=True,
        blank=True,
        help_text="While a bot is to move: when its turn began, or when the sweeper last "
        "queued it again. Empty otherwise.",
    )
    hints = models.BooleanField(
        default=False,
        db_default=False,
        help_text="A casual match whose people may ask for hints (never rated, never in a "
        "competition, never at a table).",
    )
    rematch_of = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="rematch",
        help_text="The finished match this one is the rematch of (one rematch per match).",
    )

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            # The lobby: open matches, newest first.
            models.Index(fields=["status", "-created_at"], name="match_status_created"),
            # The sweeper: bot turns waiting longest. Only matches with a bot to move are in it.
            models.Index(
                fields=["bot_turn_since"],
                condition=Q(bot_turn_since__isnull=False),
                name="match_bot_turn_since",
            ),
            # The clock sweep: running clocks by deadline, and warnings not yet sent by time.
            models.Index(
                fields=["turn_deadline"],
                name="match_turn_deadline",
                condition=Q(turn_deadline__isnull=False),
            ),
            models.Index(
                fields=["turn_warn_at"],
                name="match_turn_warn_at",
                condition=Q(turn_warn_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} #{self.pk} ({self.status})"


class Seat(models.Model):
    """A place at a match's table. ``player`` is empty while the seat is open.

    A player who resigns, or whose clock runs out too many turns in a row, stays the seat's
    player (the results name them) while a bot plays the seat: ``left`` says why.
    """

    class Left(models.TextChoices):
        RESIGNED = "resigned", "Resigned"
        TIMED_OUT = "timed_out", "Timed out too often"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="0-based, in play order (C-SEATS).")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    joined_at = models.DateTimeField(null=True, blank=True)
    left = models.CharField(
        max_length=10,
        choices=Left.choices,
        blank=True,
        default="",
        help_text="Why a bot plays this seat for its player (resigned, or timed out too often).",
    )
    left_at = models.DateTimeField(null=True, blank=True)
    bot_level = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The level of the bot playing for a player who left."
    )

    class Meta:
        ordering = ["match", "position"]
        constraints = [
            # No (match, player) constraint: a bot level's one player may sit several seats of
            # a match. A person sits one: seat_join checks it under the match's lock.
            models.UniqueConstraint(fields=["match", "position"], name="seat_unique_position"),
        ]
        indexes = [
            # "My matches": a player's seats, then their matches.
            models.Index(fields=["player", "match"], name="seat_player_match"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.position} of match {self.match_id}"


class Round(models.Model):
    """One round: its start double, the commitment to its shuffle seed, and the seed once over.

    ``opening`` keeps the events of the round's automatic start (engine.opening_events): the
    move log shows round 1's, which no move carries.
    """

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(help_text="1-based.")
    start_double = models.PositiveSmallIntegerField()
    commitment = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of the round's seed (hex); empty for a table round (no deal).",
    )
    seed_revealed = models.CharField(
        max_length=64, blank=True, default="", help_text="The round's seed, once it has ended."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    snapshot = models.JSONField(
        null=True,
        blank=True,
        help_text="The engine state as the round started; null for a table round (no deal).",
    )
    opening = models.JSONField(
        default=list,
        blank=True,
        help_text="The events of the round's automatic start, unredacted (round_started first). "
        "The match's start deals round 1 in no move: its opening is kept only here.",
    )
    scores = models.JSONField(null=True, blank=True, help_text="Points per seat, once over.")
    started_at = models.DateTimeField(
        default=timezone.now,
        help_text="The writer's one clock reading: a round dealt and ended, or entered "
        "at a table, starts and ends at the same instant.",
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of match {self.match_id}"


class Move(models.Model):
    """One accepted move: append-only. ``seq`` counts the match's moves from 1, without gaps."""

    class Kind(models.TextChoices):
        PLAY = "play", "Play"
        DRAW = "draw", "Draw"
        PASS = "pass", "Pass"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices)
    tile = models.JSONField(null=True, blank=True, help_text="[a, b] for a play.")
    target = models.CharField(max_length=32, blank=True, default="")
    events = models.JSONField(help_text="What the engine reported, unredacted.")
    version = models.PositiveIntegerField(
        null=True, blank=True, help_text="The match's version after this move."
    )
    timed_out = models.BooleanField(
        default=False, help_text="Played by the server for a human whose clock ran out."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Idempotency: the key the client sent, a hash of its request and the answer it got.
    idempotency_key = models.CharField(max_length=128, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")
    response = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="move_unique_seq"),
            models.UniqueConstraint(
                fields=["match", "seat", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="move_unique_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"Move {self.seq} of match {self.match_id}"


# Accounts' rows live in modules of their own; imported here so Django finds them.
from games.accounts.device_models import KnownDevice  # noqa: E402, F401
from games.accounts.token_models import DeviceToken  # noqa: E402, F401
from games.accounts.username_models import UsernameKey  # noqa: E402, F401
from games.analysis.models import HintUse, MatchAnalysis  # noqa: E402, F401
from games.avatars.models import PlayerAvatar  # noqa: E402, F401
from games.chat.models import ChatMessage, ChatMute  # noqa: E402, F401
from games.invitations.models import Invitation  # noqa: E402, F401
from games.notifications.models import (  # noqa: E402, F401
    Notification,
    NotificationPreference,
    PushDelivery,
    PushDevice,
)
from games.quick_play.models import QueueEntry  # noqa: E402, F401
from games.social.models import Block, FriendRequest, Friendship  # noqa: E402, F401
from games.tables.models import (  # noqa: E402, F401
    GuestClaim,
    MatchReopening,
    RoundReview,
    ScoreEntry,
    ScorerLink,
    TableSettings,
)
