"""Tournaments and leagues: the rows they keep (re-exported by ``scoring.models``).

Competitions: one ``Competition`` model for tournaments and leagues alike (``kind``), because
both register players, count matches, score places with a points scheme and rank players by
the same standings query; they differ only in how matches come to count. A tournament's
matches are created by the server, stage by stage (``Stage``), one per table; a league's are
created by its players during the season (``POST /api/matches`` with ``league``).
``CompetitionMatch`` links either kind to its matches, ``CompetitionResult`` keeps each
registered player's place and placement points once a match has finished, ``Bye`` a stage a
player sat out and its points (docs/scoring.md).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from scoring.competitions.tie_breaks import DEFAULT_ORDER

#: The two games (the engine's names; scoring does not import the engine).
VARIANT_CHOICES = [("chickenfoot", "Chicken Foot"), ("mexican_train", "Mexican Train")]


class Competition(models.Model):
    """A tournament (stages of server-seated tables) or a league (a season of any matches)."""

    class Kind(models.TextChoices):
        TOURNAMENT = "tournament", "Tournament"
        LEAGUE = "league", "League"

    class Play(models.TextChoices):
        ONLINE = "online", "Online: the server deals every table"
        TABLE = "table", "At real tables: scorers enter each round's scores"

    class Confirmation(models.TextChoices):
        # the values of a table match's own rule (games.tables.models.TableSettings)
        NOBODY = "nobody", "Nobody"
        ANY_OTHER_SEAT = "any_other_seat", "Any seat with an account but the one who entered it"
        EVERY_SEAT = "every_seat", "Every seat with an account"

    class LateEntry(models.TextChoices):
        ZERO = "zero", "Nothing for the stages missed"
        BYE = "bye", "A bye's points for each stage missed"

    class Seeding(models.TextChoices):
        RANDOM = "random", "At random from the stored seed"
        RATING = "rating", "By rating in the game, best first"
        ORDER = "order", "In the organiser's order (each entrant's seed)"

    class Pairing(models.TextChoices):
        SWISS = "swiss", "Swiss: each stage by the standings"
        ROUND_ROBIN = "round_robin", "Round robin: everyone meets everyone once"

    class Status(models.TextChoices):
        REGISTERING = "registering", "Registering players"
        CLOSED = "closed", "Registration closed"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    play = models.CharField(
        max_length=6,
        choices=Play.choices,
        default=Play.ONLINE,
        help_text="Table: stages create table matches and players check in before each stage.",
    )
    confirmation = models.CharField(
        max_length=16,
        choices=Confirmation.choices,
        default=Confirmation.NOBODY,
        help_text="Table play: who must confirm each round of its matches (a match's own "
        "setting overrides it).",
    )
    name = models.CharField(max_length=100)
    variant = models.CharField(max_length=16, choices=VARIANT_CHOICES)
    options = models.JSONField(
        default=dict, blank=True, help_text="House options as the organiser gave them (§4)."
    )
    table_size = models.PositiveSmallIntegerField(help_text="Seats at a table (a league: at most).")
    allow_bots = models.BooleanField(
        default=False, help_text="Tournament: bots fill short tables. League: bots may take seats."
    )
    bot_level = models.PositiveSmallIntegerField(default=2)
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    points_scheme = models.JSONField(help_text="Table size -> points per place, best first.")
    stage_count = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Tournament: how many stages; empty for a league."
    )
    tie_breaks = models.JSONField(
        null=True,
        blank=True,
        help_text="The standings' order, best first: keys of scoring.competitions.tie_breaks "
        "(null: the default order).",
    )
    min_matches = models.PositiveSmallIntegerField(
        default=0, help_text="Finished matches a player needs to be ranked (leagues)."
    )
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    seed = models.CharField(max_length=64, help_text="Seats stage 1 and each table's seat order.")
    organiser = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="organised_competitions"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING)
    current_stage = models.PositiveSmallIntegerField(default=0)
    check_in_closed_stage = models.PositiveSmallIntegerField(
        default=0, help_text="Check-in is closed for stages up to this number."
    )
    public = models.BooleanField(
        default=False, help_text="Its wall (standings and tables) is readable without a token."
    )
    late_entry = models.CharField(
        max_length=4,
        choices=LateEntry.choices,
        default=LateEntry.ZERO,
        db_default=LateEntry.ZERO,
        help_text="What an entrant added once stages were seated scores for the stages missed.",
    )
    seeding = models.CharField(
        max_length=6,
        choices=Seeding.choices,
        default=Seeding.RANDOM,
        db_default=Seeding.RANDOM,
        help_text="How stage 1 orders the field before seating it (docs/scoring.md).",
    )
    keep_apart_clubs = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Entrants of one club are not seated together when an equally good "
        "seating keeps them apart (docs/scoring.md).",
    )
    pairing = models.CharField(
        max_length=11,
        choices=Pairing.choices,
        default=Pairing.SWISS,
        db_default=Pairing.SWISS,
        help_text="Tournaments: how stages are paired (docs/scoring.md, Round robin).",
    )
    final_table = models.JSONField(
        null=True,
        blank=True,
        help_text='Tournaments: {"size": n}: after the last Swiss stage the top n play a final '
        "stage that decides places 1 to n (docs/scoring.md, Final table); null: none.",
    )
    divisions = models.JSONField(
        null=True,
        blank=True,
        help_text='Tournaments: [{"name": "A", "min_rating": 1600}, {"name": "B"}]: sections '
        "of the event, each seated and ranked on its own (docs/scoring.md, Divisions); "
        "null: none.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(kind="tournament", stage_count__gte=1) | Q(kind="league", stage_count=None)
                ),
                name="competition_stages_for_tournaments",
            ),
            models.CheckConstraint(
                condition=Q(table_size__gte=2), name="competition_table_of_two_or_more"
            ),
        ]
        indexes = [models.Index(fields=["kind", "status", "-created_at"], name="comp_kind_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.name!r}"

    @property
    def final_size(self) -> int:
        """How many play the final table (0: none)."""
        return int((self.final_table or {}).get("size") or 0)

    @property
    def last_stage(self) -> int:
        """The number of the last stage: the Swiss stages, then the final table if any."""
        return (self.stage_count or 0) + (1 if self.final_size else 0)

    @property
    def division_names(self) -> list[str]:
        """The divisions' names in their order (empty: an event without divisions)."""
        return [division["name"] for division in self.divisions or []]

    @property
    def order(self) -> list[str]:
        """The standings' order: ``tie_breaks``, or the default for a competition without."""
        return list(self.tie_breaks or DEFAULT_ORDER)


class Registration(models.Model):
    """A player's entry: registered by the player, or added by the organiser (an entrant, a
    guest too). Withdrawing keeps the row (``withdrawn_at``); registering clears it."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        "games.Player", on_delete=models.PROTECT, related_name="registrations"
    )
    registered_at = models.DateTimeField()
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    dropped_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Dropped out once the competition had started: seated no more, still ranked.",
    )
    rating_at_finish = models.FloatField(
        null=True,
        blank=True,
        help_text="The player's rating (ordinal) in the game when the competition finished; "
        "null before, or if unrated then.",
    )
    club = models.CharField(
        max_length=64, blank=True, default="", db_default="", help_text="As the organiser wrote it."
    )
    seed = models.PositiveIntegerField(
        null=True, blank=True, help_text="The organiser's order (1 first): seeding by order."
    )
    first_stage = models.PositiveSmallIntegerField(
        default=1,
        db_default=1,
        help_text="The first stage the entrant may be seated at: a late entrant's is the one "
        "after the stage seated when they were added.",
    )
    added_by_organiser = models.BooleanField(default=False, db_default=False)
    division = models.CharField(
        max_length=64,
        blank=True,
        default="",
        db_default="",
        help_text="The entrant's division (its name) at an event with divisions; empty: none.",
    )
    division_chosen = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The organiser chose the division (kept when the divisions change); "
        "otherwise the rating band placed the entrant.",
    )

    class Meta:
        ordering = ["competition", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "player"], name="registration_once_per_player"
            ),
        ]
        indexes = [models.Index(fields=["player", "competition"], name="registration_player")]

    def __str__(self) -> str:
        return f"Player {self.player_id} in competition {self.competition_id}"


class CheckIn(models.Model):
    """A registered player present for a table tournament's stage (``stage_number``), checked
    in by themselves or by the organiser; undone by deleting the row before the stage starts."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="check_ins")
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="check_ins"
    )
    stage_number = models.PositiveSmallIntegerField(help_text="The stage checked in for.")
    checked_in_at = models.DateTimeField()
    by_organiser = models.BooleanField(default=False)

    class Meta:
        ordering = ["competition", "stage_number", "checked_in_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "stage_number"], name="check_in_once_per_stage"
            ),
        ]

    def __str__(self) -> str:
        return f"Registration {self.registration_id} in for stage {self.stage_number}"


class Stage(models.Model):
    """One stage of a tournament: its tables are the ``CompetitionMatch`` rows with this stage."""

    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField(help_text="1-based.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(
        default=0,
        db_default=0,
        help_text="Its seating's version: each change by the organiser adds one (ETag, If-Match).",
    )
    seating_reopened_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the organiser reopened its seating after scores were entered.",
    )
    pairing_stale = models.JSONField(
        null=True,
        blank=True,
        help_text="Set when a correction of an earlier stage changed the standings it was "
        "seated from: what changed (docs/scoring.md); cleared by a re-pair.",
    )
    clock_started_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the organiser started the stage clock (table events; it enforces "
        "nothing); null: no clock.",
    )
    clock_ends_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the stage clock runs out: the wall then says the last round is on.",
    )
    final = models.BooleanField(
        default=False,
        db_default=False,
        help_text="The final table (after the last Swiss stage): its results decide places 1 "
        "to n and do not count in the Swiss totals.",
    )

    class Meta:
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "number"], name="stage_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Stage {self.number} of competition {self.competition_id}"


class CompetitionMatch(models.Model):
    """A match that counts for a competition: a tournament's table, or a league's match."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="matches")
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="competition_match"
    )
    stage = models.ForeignKey(
        Stage, null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    table_number = models.PositiveSmallIntegerField(null=True, blank=True, help_text="1-based.")
    finished = models.BooleanField(
        default=False, help_text="Settled: its results are in, or it was abandoned (none)."
    )
    locked = models.BooleanField(
        default=False, db_default=False, help_text="The organiser keeps this table as it is."
    )

    class Meta:
        ordering = ["competition", "stage", "table_number", "match"]
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "table_number"],
                condition=Q(stage__isnull=False),
                name="competition_match_unique_table",
            ),
        ]
        indexes = [
            models.Index(fields=["competition", "finished"], name="comp_match_finished"),
        ]

    def __str__(self) -> str:
        return f"Match {self.match_id} in competition {self.competition_id}"


class CompetitionResult(models.Model):
    """A registered player's result at one finished match of a competition, and its points.

    Written once per match by ``competition_match_finished`` from the match's result rows
    (``MatchResult``: place, total, rounds), so the standings are one aggregate over this table.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="results")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="results")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    stage = models.ForeignKey(
        Stage, null=True, blank=True, on_delete=models.CASCADE, related_name="results"
    )
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    place = models.PositiveSmallIntegerField(help_text="C-WIN place at the table; shared alike.")
    table_players = models.PositiveSmallIntegerField(help_text="Seats at the table, bots too.")
    placement_points = models.PositiveIntegerField(help_text="In thousandths of a point.")
    total = models.PositiveIntegerField(help_text="The player's points over the match.")
    rounds_played = models.PositiveSmallIntegerField()
    zero_rounds = models.PositiveSmallIntegerField()
    lowest_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="Lowest non-zero round score; null if none."
    )

    class Meta:
        ordering = ["competition", "match", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "match", "player"], name="competition_result_once"
            ),
        ]
        indexes = [
            models.Index(fields=["competition", "player"], name="comp_result_player"),
            models.Index(fields=["competition", "match", "place"], name="comp_result_match"),
        ]

    def __str__(self) -> str:
        return f"Player {self.player_id}, match {self.match_id}: place {self.place}"


class Bye(models.Model):
    """A registered player who sits a tournament's stage out (an odd number at tables of two
    without bots, or a late entrant's missed stage under ``late_entry: bye``) and gets the
    placement points of a win at a full table for it."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="byes")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="byes")
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey("games.Player", on_delete=models.PROTECT, related_name="+")
    placement_points = models.PositiveIntegerField(help_text="In thousandths of a point.")
    late_entry = models.BooleanField(
        default=False,
        db_default=False,
        help_text="A stage missed by a late entrant (late_entry: bye), not an odd field's bye.",
    )

    class Meta:
        ordering = ["competition", "stage", "player"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "registration"], name="bye_once_per_stage"),
        ]

    def __str__(self) -> str:
        return f"Bye for player {self.player_id} in stage {self.stage_id}"


class CompetitionTotal(models.Model):
    """A registered player's running totals in a competition: the sums of their
    ``CompetitionResult`` rows, kept up to date in the transaction that writes them
    (``scoring.competitions.totals``), so that standings read one row per player however many
    matches the competition has had."""

    registration = models.OneToOneField(
        Registration, primary_key=True, on_delete=models.CASCADE, related_name="totals"
    )
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="First places, shared ones too.")
    placement_points = models.BigIntegerField(
        default=0, help_text="In thousandths of a point, byes' included."
    )
    byes = models.PositiveIntegerField(default=0, help_text="Stages sat out with a bye.")
    total_points = models.BigIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    zero_rounds = models.PositiveIntegerField(default=0)
    best_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="Lowest non-zero round score of any match; null if none."
    )

    def __str__(self) -> str:
        return f"Totals of registration {self.registration_id}: {self.matches} matches"
