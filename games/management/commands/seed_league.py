"""Fill the database with a league's worth of finished matches, for the query benchmarks.

    python manage.py seed_league --matches 100000 [--players 500] [--seed 1]

Realistic rows: 4-player matches among ``--players`` league players (created once, reused by
later runs), 70 % Chicken Foot and 30 % Mexican Train with their default options. Every round
of every match is a round the engine's bots really played: a pool of rounds is played first
(levels 1 to 3 at the table), then each match draws its rounds from the pool with the seats
shuffled. The command writes what the scoring queries read: matches (finished, with the engine's
standings), seats, round rows, result rows by C-WIN, the finalisation marker, openskill ratings
and rating changes in the order the matches finished. It writes no moves or round snapshots
(those matches cannot be replayed). On PostgreSQL rows go in by ``COPY``; elsewhere by
``bulk_create``. Running it again appends, later in time.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management.base import BaseCommand, CommandParser
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Max
from django.utils import timezone
from tqdm import tqdm

from games import bots, engine
from games.models import Match, Player, Seat
from scoring import ratings
from scoring.competitions import points, totals
from scoring.models import (
    Competition,
    CompetitionMatch,
    CompetitionResult,
    MatchFinalisation,
    MatchResult,
    Rating,
    RatingChange,
    Registration,
    RoundResult,
)

SEATS = 4
VARIANT_SHARE = ((engine.CHICKENFOOT, 0.7), (engine.MEXICAN_TRAIN, 0.3))
USERNAME_PREFIX = "league-"
#: Time between two finished matches of the league.
SPACING = timedelta(minutes=5)
BATCH = 2000

PoolRound = tuple[list[int], int | None]  # scores per seat, the seat that went out


def round_pool(*, variant: str, rounds: int, seed: str) -> list[PoolRound]:
    """``rounds`` rounds the bots play through the engine: (scores, who went out)."""
    rng = random.Random(seed)
    pool: list[PoolRound] = []
    played = 0
    while len(pool) < rounds:
        state = engine.new_match(variant, SEATS, {}, f"{seed}:{played}")
        levels = [rng.choice((1, 2, 3)) for _ in range(SEATS)]
        played += 1
        while state.status == "playing":
            seat = state.turn
            move = bots.choose_move(bots.seat_info(state, seat), levels[seat], rng)
            state, events = engine.apply_move(state, seat, move)
            went_out = None
            for event in events:
                if event["type"] == "round_ended":
                    went_out = event["seat"] if event["reason"] == "out" else None
                elif event["type"] == "round_scores":
                    pool.append((list(event["scores"]), went_out))
    return pool[:rounds]


def c_win(scores: list[list[int]]) -> list[dict[str, Any]]:
    """The engine's final order (C-WIN) of ``scores[round][seat]``."""
    return engine.final_order(scores)


class Writer:
    """Appends rows to tables: ``COPY`` on PostgreSQL, ``bulk_create`` elsewhere."""

    def __init__(self) -> None:
        self.copy = connection.vendor == "postgresql"

    def write(self, model: type[models.Model], rows: Sequence[dict[str, Any]]) -> None:
        if not rows:
            return
        # COPY names its columns: a column the rows leave out gets the model's default (a
        # database column has none of its own), so fields added to a model later still fill.
        defaults = {
            f.attname: f.get_default()
            for f in model._meta.concrete_fields
            if f.attname not in rows[0] and f.has_default()
        }
        if defaults:
            rows = [{**defaults, **row} for row in rows]
        columns = list(rows[0])
        if not self.copy:
            model.objects.bulk_create([model(**row) for row in rows], batch_size=500)
            return
        json_columns = {
            f.attname for f in model._meta.concrete_fields if isinstance(f, models.JSONField)
        }
        table = model._meta.db_table
        names = ", ".join(connection.ops.quote_name(c) for c in columns)
        raw = connection.connection  # the psycopg connection under Django's wrapper
        with raw.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(
                    [
                        json.dumps(row[c]) if c in json_columns and row[c] is not None else row[c]
                        for c in columns
                    ]
                )


def next_id(model: type[models.Model]) -> int:
    return (model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1


class Command(BaseCommand):
    help = "Fill the database with finished 4-player league matches and their results."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, required=True, help="How many to add.")
        parser.add_argument("--players", type=int, default=500, help="League size (500).")
        parser.add_argument("--seed", default="1", help="Seed of every random choice.")
        parser.add_argument(
            "--pool", type=int, default=400, help="Real rounds per variant to draw from (400)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count, seed = options["matches"], options["seed"]
        if count < 1 or options["players"] < SEATS:
            self.stderr.write(f"Need at least 1 match and {SEATS} players.")
            return
        rng = random.Random(f"league:{seed}:{next_id(Match)}")
        self.stdout.write(f"Playing {options['pool']} rounds per variant with the bots...")
        pools = {
            variant: round_pool(variant=variant, rounds=options["pool"], seed=f"{seed}:{variant}")
            for variant, _ in VARIANT_SHARE
        }
        players = self.league_players(options["players"])
        leagues = {variant: self.league(variant, players) for variant, _ in VARIANT_SHARE}
        skill = {
            (r.player_id, r.variant): [r.mu, r.sigma, r.matches]
            for r in Rating.objects.filter(player_id__in=players)
        }
        last = Match.objects.aggregate(last=Max("finished_at"))["last"]
        clock = last + SPACING if last else timezone.now() - SPACING * count
        writer = Writer()
        with tqdm(total=count, unit="match", desc="seed_league") as bar:
            done = 0
            while done < count:
                size = min(BATCH, count - done)
                with transaction.atomic():
                    clock = self.batch(writer, size, rng, pools, players, leagues, skill, clock)
                done += size
                bar.update(size)
        self.save_ratings(skill)
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(
                no_style(),
                [Match, Seat, RoundResult, MatchResult, RatingChange, CompetitionMatch,
                 CompetitionResult],
            ):  # fmt: skip
                cursor.execute(sql)
        with transaction.atomic():
            totals.rebuild(competition_ids=[league.pk for league, _ in leagues.values()])
        self.stdout.write(
            self.style.SUCCESS(f"Added {count} matches among {len(players)} players.")
        )

    def league_players(self, size: int) -> list[int]:
        """The ids of the league's players, created on first use (they never log in)."""
        existing = list(
            Player.objects.filter(user__username__startswith=USERNAME_PREFIX)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        missing = size - len(existing)
        if missing > 0:
            user_model = get_user_model()
            start = len(existing)
            names = [f"{USERNAME_PREFIX}{start + i + 1:04d}" for i in range(missing)]
            users = user_model.objects.bulk_create(
                [user_model(username=name, password=make_password(None)) for name in names]
            )
            if any(u.pk is None for u in users):  # backends that return no ids
                users = list(user_model.objects.filter(username__in=names).order_by("pk"))
            made = Player.objects.bulk_create(
                [
                    Player(
                        user=user, kind=Player.Kind.HUMAN, display_name=f"Player {start + i + 1}"
                    )
                    for i, user in enumerate(users)
                ]
            )
            if any(p.pk is None for p in made):
                return self.league_players(size)
            existing += [p.pk for p in made]
        return existing[:size]

    def league(self, variant: str, players: list[int]) -> tuple[Competition, dict[int, int]]:
        """The seeded league of ``variant`` (created on first use, running, organised by the
        first league player) with every league player registered: it and their registrations."""
        name = f"Seeded league ({variant.replace('_', ' ')})"
        league = Competition.objects.filter(kind=Competition.Kind.LEAGUE, name=name).first()
        if league is None:
            league = Competition.objects.create(
                kind=Competition.Kind.LEAGUE,
                name=name,
                variant=variant,
                table_size=SEATS,
                points_scheme=points.default_scheme(range(2, SEATS + 1)),
                seed="seed_league",
                organiser_id=players[0],
                status=Competition.Status.RUNNING,
            )
        now = timezone.now()
        Registration.objects.bulk_create(
            [Registration(competition=league, player_id=p, registered_at=now) for p in players],
            ignore_conflicts=True,
        )
        registered = dict(
            Registration.objects.filter(competition=league).values_list("player_id", "pk")
        )
        return league, registered

    def batch(
        self,
        writer: Writer,
        size: int,
        rng: random.Random,
        pools: dict[str, list[PoolRound]],
        players: list[int],
        leagues: dict[str, tuple[Competition, dict[int, int]]],
        skill: dict[tuple[int, str], list[float]],
        clock: datetime,
    ) -> datetime:
        """Write ``size`` matches finishing from ``clock`` on; return the next match's time."""
        written = (
            Match, Seat, RoundResult, MatchResult, MatchFinalisation, RatingChange,
            CompetitionMatch, CompetitionResult,
        )  # fmt: skip
        ids = {model: next_id(model) for model in written if model is not MatchFinalisation}
        tables: dict[type[models.Model], list[dict[str, Any]]] = {model: [] for model in written}
        variants = [v for v, _ in VARIANT_SHARE]
        weights = [w for _, w in VARIANT_SHARE]
        for _ in range(size):
            match_id = ids[Match]
            ids[Match] += 1
            variant = rng.choices(variants, weights)[0]
            options = engine.resolve_options(variant, SEATS, {})
            seated = rng.sample(players, SEATS)
            scores, went_out = [], []
            for _round in range(options["rounds"]):
                points, out = rng.choice(pools[variant])
                order = rng.sample(range(SEATS), SEATS)  # seat s plays pool seat order[s]
                scores.append([points[order[s]] for s in range(SEATS)])
                went_out.append(order.index(out) if out is not None else None)
            standings = c_win(scores)
            finished = clock
            clock += SPACING
            started = finished - timedelta(minutes=rng.randint(8, 40))
            tables[Match].append(
                {
                    "id": match_id,
                    "variant": variant,
                    "options": options,
                    "status": Match.Status.FINISHED,
                    "seat_count": SEATS,
                    "seed": rng.randbytes(32).hex(),
                    "version": 0,
                    "moves_played": 0,
                    "state": None,
                    "bot_seats": [],
                    "standings": standings,
                    "created_by_id": seated[0],
                    "created_at": started - timedelta(minutes=2),
                    "started_at": started,
                    "finished_at": finished,
                }
            )
            for seat, player_id in enumerate(seated):
                tables[Seat].append(
                    {
                        "id": ids[Seat],
                        "match_id": match_id,
                        "position": seat,
                        "player_id": player_id,
                        "joined_at": started,
                    }
                )
                ids[Seat] += 1
            for number, (row, out) in enumerate(zip(scores, went_out, strict=True), start=1):
                for seat, points in enumerate(row):
                    tables[RoundResult].append(
                        {
                            "id": ids[RoundResult],
                            "match_id": match_id,
                            "round_number": number,
                            "seat": seat,
                            "player_id": seated[seat],
                            "points": points,
                            "went_out": seat == out,
                        }
                    )
                    ids[RoundResult] += 1
            by_seat = sorted(standings, key=lambda r: r["seat"])
            for place in by_seat:
                tables[MatchResult].append(
                    {
                        "id": ids[MatchResult],
                        "match_id": match_id,
                        "player_id": seated[place["seat"]],
                        "seat": place["seat"],
                        "seat_count": SEATS,
                        "place": place["place"],
                        "total": place["total"],
                        "zero_rounds": place["zero_rounds"],
                        "lowest_round": place["lowest_round"],
                        "rounds_played": len(scores),
                        "decided_by": place["decided_by"],
                        "variant": variant,
                        "finished_at": finished,
                    }
                )
                ids[MatchResult] += 1
            tables[MatchFinalisation].append(
                {
                    "match_id": match_id,
                    "queued_at": finished,
                    "finalised_at": finished,
                    "engine_agreed": True,
                }
            )
            self.count_in_league(
                tables, ids, leagues[variant], match_id, seated, by_seat, len(scores)
            )
            keys = [(seated[p["seat"]], variant) for p in by_seat]
            before = [skill.get(key, [ratings.MU, ratings.SIGMA, 0]) for key in keys]
            after = ratings.rate([(b[0], b[1]) for b in before], [p["place"] for p in by_seat])
            for key, old, (mu, sigma) in zip(keys, before, after, strict=True):
                skill[key] = [mu, sigma, old[2] + 1]
                tables[RatingChange].append(
                    {
                        "id": ids[RatingChange],
                        "player_id": key[0],
                        "match_id": match_id,
                        "variant": variant,
                        "mu_before": old[0],
                        "sigma_before": old[1],
                        "mu_after": mu,
                        "sigma_after": sigma,
                        "ordinal_before": ratings.ordinal(old[0], old[1]),
                        "ordinal_after": ratings.ordinal(mu, sigma),
                        "created_at": finished,
                    }
                )
                ids[RatingChange] += 1
        for model, rows in tables.items():
            writer.write(model, rows)
        return clock

    @staticmethod
    def count_in_league(
        tables: dict[type[models.Model], list[dict[str, Any]]],
        ids: dict[type[models.Model], int],
        league: tuple[Competition, dict[int, int]],
        match_id: int,
        seated: list[int],
        by_seat: list[dict[str, Any]],
        rounds: int,
    ) -> None:
        """The rows that count a finished match for its league, as the end-of-match task
        writes them (placement points by the league's scheme); totals are rebuilt at the end."""
        competition, registered = league
        tables[CompetitionMatch].append(
            {
                "id": ids[CompetitionMatch],
                "competition_id": competition.pk,
                "match_id": match_id,
                "stage_id": None,
                "table_number": None,
                "finished": True,
            }
        )
        ids[CompetitionMatch] += 1
        scheme = competition.points_scheme[str(len(by_seat))]
        shares = points.table_points(places=[p["place"] for p in by_seat], scheme_places=scheme)
        for place, share in zip(by_seat, shares, strict=True):
            player_id = seated[place["seat"]]
            tables[CompetitionResult].append(
                {
                    "id": ids[CompetitionResult],
                    "competition_id": competition.pk,
                    "registration_id": registered[player_id],
                    "match_id": match_id,
                    "stage_id": None,
                    "player_id": player_id,
                    "place": place["place"],
                    "table_players": len(by_seat),
                    "placement_points": share,
                    "total": place["total"],
                    "rounds_played": rounds,
                    "zero_rounds": place["zero_rounds"],
                    "lowest_round": place["lowest_round"],
                }
            )
            ids[CompetitionResult] += 1

    def save_ratings(self, skill: dict[tuple[int, str], list[float]]) -> None:
        """The league's current ratings (replacing those of its players)."""
        player_ids = {player_id for player_id, _ in skill}
        now = timezone.now()
        rows: Iterable[Rating] = (
            Rating(
                player_id=player_id,
                variant=variant,
                mu=mu,
                sigma=sigma,
                ordinal=ratings.ordinal(mu, sigma),
                matches=int(matches),
                updated_at=now,
            )
            for (player_id, variant), (mu, sigma, matches) in skill.items()
        )
        with transaction.atomic():
            Rating.objects.filter(player_id__in=player_ids).delete()
            Rating.objects.bulk_create(list(rows), batch_size=500)
