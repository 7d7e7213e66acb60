"""Fill the result rows (and ratings) of matches that finished before scoring kept rows.

Round rows come from each ``games.Round.scores`` (who went out from the ``round_ended`` event of
the move that ended the round); match rows from ``games.Match.standings`` (the engine's C-WIN
order, which the end-of-match task now checks against the rows); ratings by replaying every
finished match in the order it finished, as the task would have. Matches are read in batches.
"""

from __future__ import annotations

from django.db import migrations

#: Kept here (not imported from scoring.ratings): a migration must not change with the code.
MU, SIGMA = 25.0, 25.0 / 3.0


def _went_out(events_by_round, number, scores):
    """The seat that went out in round ``number``, or ``None`` (a blocked round)."""
    event = events_by_round.get(number)
    if event is not None:
        return event.get("seat") if event.get("reason") == "out" else None
    # A round that ended as it was dealt at the match's start is in no move: its one-tile
    # holder of the start double went out, the only seat left with nothing.
    zeros = [seat for seat, points in enumerate(scores) if points == 0]
    return zeros[0] if len(zeros) == 1 else None


def backfill(apps, schema_editor):
    Match = apps.get_model("games", "Match")
    Seat = apps.get_model("games", "Seat")
    Round = apps.get_model("games", "Round")
    Move = apps.get_model("games", "Move")
    RoundResult = apps.get_model("scoring", "RoundResult")
    MatchResult = apps.get_model("scoring", "MatchResult")
    MatchFinalisation = apps.get_model("scoring", "MatchFinalisation")
    Rating = apps.get_model("scoring", "Rating")
    RatingChange = apps.get_model("scoring", "RatingChange")

    from openskill.models import PlackettLuce

    model = PlackettLuce(mu=MU, sigma=SIGMA)
    ratings = {}  # (player_id, variant) -> [mu, sigma, matches]
    finished = (
        Match.objects.filter(status="finished", standings__isnull=False)
        .exclude(finished_at__isnull=True)
        .order_by("finished_at", "id")
        .values("id", "variant", "finished_at", "standings", "seat_count")
    )
    for match in finished.iterator(chunk_size=500):
        match_id = match["id"]
        if MatchFinalisation.objects.filter(match_id=match_id).exists():
            continue
        players = dict(
            Seat.objects.filter(match_id=match_id).values_list("position", "player_id")
        )
        events_by_round = {}
        for events in Move.objects.filter(match_id=match_id).values_list("events", flat=True):
            for event in events:
                if event.get("type") == "round_ended":
                    events_by_round[event["round"]] = event
        rounds = list(
            Round.objects.filter(match_id=match_id, scores__isnull=False)
            .order_by("number")
            .values_list("number", "scores")
        )
        RoundResult.objects.bulk_create(
            [
                RoundResult(
                    match_id=match_id,
                    round_number=number,
                    seat=seat,
                    player_id=players[seat],
                    points=points,
                    went_out=_went_out(events_by_round, number, scores) == seat,
                )
                for number, scores in rounds
                for seat, points in enumerate(scores)
            ]
        )
        standings = sorted(match["standings"], key=lambda row: row["seat"])
        MatchResult.objects.bulk_create(
            [
                MatchResult(
                    match_id=match_id,
                    player_id=players[row["seat"]],
                    seat=row["seat"],
                    seat_count=match["seat_count"],
                    place=row["place"],
                    total=row["total"],
                    zero_rounds=row["zero_rounds"],
                    lowest_round=row["lowest_round"],
                    rounds_played=len(rounds),
                    decided_by=row["decided_by"],
                    variant=match["variant"],
                    finished_at=match["finished_at"],
                )
                for row in standings
            ]
        )
        MatchFinalisation.objects.create(match_id=match_id, engine_agreed=True)
        # Ratings, in the order the matches finished (shared places are ties).
        keys = [(players[row["seat"]], match["variant"]) for row in standings]
        before = [ratings.get(key, [MU, SIGMA, 0]) for key in keys]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
        after = model.rate(teams, ranks=[float(row["place"]) for row in standings])
        changes = []
        for key, old, (new,) in zip(keys, before, after, strict=True):
            ratings[key] = [new.mu, new.sigma, old[2] + 1]
            changes.append(
                RatingChange(
                    player_id=key[0],
                    match_id=match_id,
                    variant=key[1],
                    mu_before=old[0],
                    sigma_before=old[1],
                    mu_after=new.mu,
                    sigma_after=new.sigma,
                    ordinal_before=old[0] - 3 * old[1],
                    ordinal_after=new.mu - 3 * new.sigma,
                )
            )
        RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        [
            Rating(
                player_id=player_id,
                variant=variant,
                mu=mu,
                sigma=sigma,
                ordinal=mu - 3 * sigma,
                matches=count,
            )
            for (player_id, variant), (mu, sigma, count) in ratings.items()
        ]
    )


def unfill(apps, schema_editor):
    for name in ("RatingChange", "Rating", "MatchFinalisation", "MatchResult", "RoundResult"):
        apps.get_model("scoring", name).objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0001_results"),
        ("games", "0002_round_opening"),
    ]

    operations = [migrations.RunPython(backfill, unfill)]
