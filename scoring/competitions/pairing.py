"""Who sits where at a stage: the field in order (stage 1's seeding, later the standings), its
byes, the pairs kept apart, and the seating that comes of them (``seating``).

``stage_pairing`` is what starting a stage and re-pairing it both call, under the competition's
lock. The order and the ranks (docs/scoring.md, "Seating"):

- **stage 1**, ``seeding: random`` (the default): the players shuffled with the stored seed,
  all of one rank; ``rating``: by their rating in the game (the rating the leaderboard shows),
  best first, equal ratings sharing a rank and the unrated last, together; ``order``: by the
  seed the organiser gave each entrant (1 first), those without one last, together;
- **later stages**: the standings' order, and for ranks the placement points alone (players
  level on points share a rank, as a Swiss pairs within a score group: the standings'
  tie-breaks order the field, they do not separate it).

At an event with divisions, each division is paired on its own (``divisions.split_field``),
by its own standings, and its tables follow the division before's: nobody is seated with an
entrant of another division; a division with one player in the field gives them a bye (at
the final table: nothing, as a final has no byes).

Keep-apart pairs (``apart_pairs``): the pairs the organiser named, and with
``keep_apart_clubs`` every two entrants of one club (the club as written, without regard to
case or spacing).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations

from django.db.models import F

from scoring.competitions import byes as stage_byes
from scoring.competitions import divisions, final_table, round_robin, round_robin_groups, seating
from scoring.competitions.seating_search import Pair
from scoring.competitions.standings import met_counts, ranked_player_ids
from scoring.models import Competition, KeepApart, Rating, Registration
from scoring.ports import games_port
from scoring.ratings import display_rating

SEEDING = Competition.Seeding


@dataclass(frozen=True)
class FieldOrder:
    """The players best first, and each one's rank (equal players share one)."""

    ranked: list[int]
    rank: dict[int, int]


@dataclass(frozen=True)
class Pairing:
    """A stage's tables (player ids in seat order, ``None`` for a bot) and its byes."""

    tables: list[seating.Table]
    byes: list[int]


def shared_ranks(values: dict[int, float | int | None], *, best_high: bool) -> FieldOrder:
    """Players ordered by ``values`` (best first: the highest when ``best_high``), ``None``
    last; each player's rank is 1 + the number of players strictly better (1, 2, 2, 4), and
    the players without a value share the last one. Ties keep the lower player id first."""

    def key(player: int) -> tuple[int, float, int]:
        value = values[player]
        if value is None:
            return (1, 0.0, player)
        return (0, -value if best_high else value, player)

    ranked = sorted(values, key=key)
    rank: dict[int, int] = {}
    for index, player in enumerate(ranked):
        if index and key(ranked[index - 1])[:2] == key(player)[:2]:
            rank[player] = rank[ranked[index - 1]]
        else:
            rank[player] = index + 1
    return FieldOrder(ranked=ranked, rank=rank)


def field_order(
    *, competition: Competition, number: int, players: list[int], division: str | None = None
) -> FieldOrder:
    """The players of stage ``number`` in order, with their ranks (the module says how); at
    an event with divisions, ``division``'s standings order them."""
    field = set(players)
    if number > 1:
        points = dict(
            Registration.objects.filter(
                competition=competition, withdrawn_at__isnull=True, player_id__in=field
            ).values_list("player_id", F("totals__placement_points"))
        )
        by_points = shared_ranks(
            {player: points.get(player) or 0 for player in players}, best_high=True
        )
        ranked = [
            p for p in ranked_player_ids(competition=competition, division=division) if p in field
        ]
        return FieldOrder(ranked=ranked, rank=by_points.rank)
    if competition.seeding == SEEDING.RATING:
        ratings = dict(
            Rating.objects.filter(player_id__in=field, variant=competition.variant).values_list(
                "player_id", "ordinal"
            )
        )
        return shared_ranks(
            {p: display_rating(ratings[p]) if p in ratings else None for p in players},
            best_high=True,
        )
    if competition.seeding == SEEDING.ORDER:
        seeds = dict(
            Registration.objects.filter(
                competition=competition, withdrawn_at__isnull=True, player_id__in=field
            ).values_list("player_id", "seed")
        )
        return shared_ranks({p: seeds.get(p) for p in players}, best_high=False)
    return FieldOrder(ranked=sorted(players), rank=dict.fromkeys(players, 1))


def club_key(club: str) -> str:
    """A club as compared: without regard to case or spacing (``""``: none)."""
    return " ".join(club.split()).casefold()


def apart_pairs(*, competition: Competition, players: list[int]) -> frozenset[Pair]:
    """The pairs of ``players`` to keep apart: named by the organiser, and with
    ``keep_apart_clubs`` each two of one club."""
    field = set(players)
    pairs = {
        frozenset((a, b))
        for a, b in KeepApart.objects.filter(competition=competition).values_list(
            "player_a_id", "player_b_id"
        )
        if a in field and b in field
    }
    if competition.keep_apart_clubs:
        clubs: dict[str, list[int]] = defaultdict(list)
        for player_id, club in Registration.objects.filter(
            competition=competition, withdrawn_at__isnull=True, player_id__in=field
        ).values_list("player_id", "club"):
            if club_key(club):
                clubs[club_key(club)].append(player_id)
        for members in clubs.values():
            pairs.update(frozenset(pair) for pair in combinations(sorted(members), 2))
    return frozenset(pairs)


def stage_rng(competition: Competition, number: int) -> random.Random:
    """The random draws of stage ``number`` (its byes, stage 1's shuffle, seat orders)."""
    return random.Random(f"{competition.seed}:{number}")


def stage_pairing(
    *,
    competition: Competition,
    number: int,
    players: list[int],
    already_seated: Collection[int] = (),
) -> Pairing:
    """Seat ``players`` (by id) for stage ``number``: each division apart, one after the
    other (the module says how), each by ``division_pairing``. The caller holds the
    competition's lock."""
    groups = divisions.split_field(competition, players)
    if len(groups) == 1:
        return division_pairing(
            competition=competition,
            number=number,
            players=players,
            already_seated=len(already_seated),
        )
    of = divisions.entrant_divisions(competition)
    tables: list[seating.Table] = []
    byes: list[int] = []
    for name, members in groups:
        if len(members) < 2:
            if not final_table.is_final(competition, number):
                byes += members  # alone in the division's field: nobody to play
            continue
        part = division_pairing(
            competition=competition,
            number=number,
            players=members,
            already_seated=sum(1 for p in already_seated if of.get(p) == name),
            division=name,
        )
        tables += part.tables
        byes += part.byes
    return Pairing(tables=tables, byes=byes)


def division_pairing(
    *,
    competition: Competition,
    number: int,
    players: list[int],
    already_seated: int = 0,
    division: str | None = None,
) -> Pairing:
    """Seat ``players`` (by id; one division's at an event with divisions) for stage
    ``number``: byes first (stage 1 at random: drawn from the seed; seeded: the last in the
    seed order; later: the lowest-ranked of those with the fewest byes so far), then the
    tables; the final table seats the best of the field (``final_table``), with no byes, less
    the ``already_seated`` finalists of the tables a re-pair keeps."""
    rng = stage_rng(competition, number)
    order = field_order(competition=competition, number=number, players=players, division=division)
    if final_table.is_final(competition, number):
        tables = final_table.final_tables(
            ranked=order.ranked,
            size=max(0, competition.final_size - already_seated),
            table_size=competition.table_size,
            rng=rng,
        )
        return Pairing(tables=tables, byes=[])
    if competition.pairing == Competition.Pairing.ROUND_ROBIN:
        return round_robin_pairing(
            competition=competition, number=number, players=players, division=division
        )
    randomly = number == 1 and competition.seeding == SEEDING.RANDOM
    if randomly or number > 1:
        byes = stage_byes.bye_players_for(
            competition=competition, ranked=order.ranked, rng=rng, first=number == 1
        )
    else:
        count = seating.byes_needed(
            players=len(players),
            table_size=competition.table_size,
            fill_with_bots=competition.allow_bots,
        )
        byes = seating.bye_players(ranked=order.ranked, count=count)
    seated = [p for p in order.ranked if p not in byes]
    apart = apart_pairs(competition=competition, players=seated)
    if randomly:
        tables = seating.seat_at_random(
            players=seated,
            table_size=competition.table_size,
            fill_with_bots=competition.allow_bots,
            rng=rng,
            apart=apart,
        )
    else:
        tables = seating.seat_swiss(
            ranked=seated,
            table_size=competition.table_size,
            fill_with_bots=competition.allow_bots,
            met=met_counts(competition=competition) if number > 1 else {},
            rng=rng,
            rank=order.rank,
            apart=apart,
        )
    return Pairing(tables=tables, byes=byes)


def round_robin_pairing(
    *, competition: Competition, number: int, players: list[int], division: str | None = None
) -> Pairing:
    """Stage ``number`` of a round robin (``round_robin``): its round of the schedule drawn
    (tables of 2: the circle method; 3 and 4: ``round_robin_groups``) over the entrants (not
    withdrawn; late entrants are refused once it is seated; of ``division`` only, at an event
    with divisions: each division is a round robin of its own), the players in the stage's field
    at their tables, a player left alone by absent opponents or the bye sitting it out with a
    bye. Each table's seat order is drawn from the seed."""
    entrants = Registration.objects.filter(
        competition=competition, withdrawn_at__isnull=True
    ).values_list("player_id", flat=True)
    if division is not None:
        entrants = entrants.filter(division=division)
    order = round_robin.schedule_order(list(entrants), competition.seed)
    if competition.table_size == 2:
        tables, byes = round_robin.seat_round(
            round_robin.stage_round(order, number), present=set(players)
        )
    else:
        stages = round_robin_groups.schedule(
            order, competition.table_size, number, competition.seed
        )
        tables, byes = round_robin_groups.seat_stage(stages[number - 1], present=set(players))
    rng = stage_rng(competition, number)
    for table in tables:
        rng.shuffle(table)
    return Pairing(tables=tables, byes=byes)


def table_match_create(competition: Competition, table: seating.Table) -> int:
    """Create the match of one table of a stage: a table match at a table event (scores
    entered by its players or the organiser), otherwise a dealt match, started (with the
    competition's turn clock, when it has one)."""
    port = games_port()
    if competition.play == Competition.Play.TABLE:
        return port.table_match_create_seated(
            organiser_id=competition.organiser_id,
            variant=competition.variant,
            options=competition.options,
            player_ids=[player_id for player_id in table if player_id is not None],
        )
    options = dict(competition.options)
    if competition.turn_seconds is not None:
        options["turn_seconds"] = competition.turn_seconds
    return port.match_create_seated(
        organiser_id=competition.organiser_id,
        variant=competition.variant,
        options=options,
        player_ids=table,
        bot_level=competition.bot_level,
        turn_seconds=competition.turn_seconds,
    )


def table_matches_create(competition: Competition, tables: list[seating.Table]) -> list[int]:
    """``table_match_create`` for each of a stage's ``tables``, in order: at a table event
    written together (the same rows, each kind in one statement), otherwise a table at a time."""
    if competition.play != Competition.Play.TABLE:
        return [table_match_create(competition, table) for table in tables]
    return games_port().table_matches_create_seated(
        organiser_id=competition.organiser_id,
        variant=competition.variant,
        options=competition.options,
        tables=[[player_id for player_id in table if player_id is not None] for table in tables],
    )
