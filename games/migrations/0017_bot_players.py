"""One player per bot level: the bot players made one per seat are merged into the first of
their level, with their seats, round and match results; then the ratings of every variant with
a merged bot are rated again from the result rows, in the order the matches finished (as the
end-of-match task rates them now: a bot level at several seats of a match once, at its best
place). Each rating change row keeps its creation time; a merged bot's row in a match takes the
match's finish.

Reversible: unapplied, each extra seat of a level at one match gets a bot player of its own
again (the seat, its round and match rows follow it), so that a person's one seat per match can
be a constraint again; the ratings stay as they were rated here.
"""

from collections import defaultdict

from django.db import migrations, models
from django.db.models import Count, Min, Q

#: Kept here (not imported from scoring.ratings): a migration must not change with the code.
MU = 25.0
SIGMA = 25.0 / 3.0


FIGURES = [
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "ordinal_before",
    "ordinal_after",
]


def _ordinal(mu, sigma):
    return mu - 3 * sigma


def _player_references(apps, Player):
    """(model, field name) of every foreign key to Player, of any app."""
    return [
        (model, field.name)
        for model in apps.get_models()
        for field in model._meta.fields
        if field.is_relation and field.related_model is Player
    ]


def merge(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    Rating = apps.get_model("scoring", "Rating")
    RatingChange = apps.get_model("scoring", "RatingChange")
    kept = dict(
        Player.objects.filter(kind="bot")
        .values("bot_level")
        .annotate(first=Min("id"))
        .values_list("bot_level", "first")
    )
    dupes = defaultdict(list)  # kept id -> the ids merged into it
    for pid, level in Player.objects.filter(kind="bot").values_list("id", "bot_level"):
        if pid != kept[level]:
            dupes[kept[level]].append(pid)
    if not dupes:
        return
    merged = [pid for ids in dupes.values() for pid in ids]
    variants = set(
        RatingChange.objects.filter(player_id__in=[*merged, *dupes]).values_list(
            "variant", flat=True
        )
    )
    # Their rating rows go (rated again below); then every reference moves to the kept player.
    RatingChange.objects.filter(player_id__in=merged).delete()
    Rating.objects.filter(player_id__in=merged).delete()
    for model, field in _player_references(apps, Player):
        if model in (Rating, RatingChange):
            continue
        for keep, ids in dupes.items():
            model._base_manager.filter(**{f"{field}__in": ids}).update(**{field: keep})
    Player.objects.filter(pk__in=merged).delete()
    for variant in sorted(variants):
        _rate_again(apps, variant)
    _checks_now(schema_editor)


def _checks_now(schema_editor):
    """Run PostgreSQL's deferred foreign key checks now: an index cannot be made on a table
    with checks pending in the same transaction (the constraint that follows)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def _rate_again(apps, variant):
    from openskill.models import PlackettLuce

    MatchResult = apps.get_model("scoring", "MatchResult")
    Rating = apps.get_model("scoring", "Rating")
    RatingChange = apps.get_model("scoring", "RatingChange")
    model = PlackettLuce(mu=MU, sigma=SIGMA)
    rated = set(RatingChange.objects.filter(variant=variant).values_list("match_id", flat=True))
    existing = {
        (row.match_id, row.player_id): row
        for row in RatingChange.objects.filter(variant=variant).iterator(chunk_size=2000)
    }
    matches = defaultdict(list)
    finish = {}
    for row in (
        MatchResult.objects.filter(variant=variant, match_id__in=rated)
        .order_by("finished_at", "match_id", "seat")
        .values("match_id", "player_id", "place", "finished_at")
        .iterator(chunk_size=2000)
    ):
        matches[row["match_id"]].append(row)
        finish[row["match_id"]] = row["finished_at"]
    state = {}  # player -> [mu, sigma, matches]
    changed, created, alone = [], [], []
    for match_id, rows in matches.items():
        best = {}
        for row in rows:
            if row["player_id"] not in best or row["place"] < best[row["player_id"]]:
                best[row["player_id"]] = row["place"]
        players = list(best)
        if len(players) < 2:  # one level at every seat is one player now: not rated
            alone.append(match_id)
            continue
        before = [state.get(pid, [MU, SIGMA, 0]) for pid in players]
        teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma, _ in before]
        after = model.rate(teams, ranks=[float(best[pid]) for pid in players])
        for pid, old, team in zip(players, before, after):
            mu1, sigma1 = team[0].mu, team[0].sigma
            state[pid] = [mu1, sigma1, old[2] + 1]
            figures = {
                "mu_before": old[0],
                "sigma_before": old[1],
                "mu_after": mu1,
                "sigma_after": sigma1,
                "ordinal_before": _ordinal(old[0], old[1]),
                "ordinal_after": _ordinal(mu1, sigma1),
            }
            row = existing.pop((match_id, pid), None)
            if row is None:
                created.append(
                    RatingChange(player_id=pid, match_id=match_id, variant=variant, **figures)
                )
            else:
                for name, value in figures.items():
                    setattr(row, name, value)
                changed.append(row)
    RatingChange.objects.filter(match_id__in=alone).delete()
    RatingChange.objects.bulk_update(changed, FIGURES, batch_size=1000)
    for row in RatingChange.objects.bulk_create(created, batch_size=1000):
        RatingChange.objects.filter(pk=row.pk).update(created_at=finish[row.match_id])
    stored = {r.player_id: r for r in Rating.objects.filter(variant=variant)}
    for pid, (mu, sigma, count) in state.items():
        rating = stored.get(pid) or Rating(player_id=pid, variant=variant)
        rating.mu, rating.sigma, rating.ordinal, rating.matches = (
            mu,
            sigma,
            _ordinal(mu, sigma),
            count,
        )
        rating.save()


def split(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    Seat = apps.get_model("games", "Seat")
    RoundResult = apps.get_model("scoring", "RoundResult")
    MatchResult = apps.get_model("scoring", "MatchResult")
    doubled = (
        Seat.objects.filter(player__kind="bot")
        .values("match_id", "player_id")
        .annotate(n=Count("id"))
        .filter(n__gt=1)
    )
    for group in doubled:
        bot = Player.objects.get(pk=group["player_id"])
        extra = Seat.objects.filter(match_id=group["match_id"], player_id=bot.pk).order_by(
            "position"
        )[1:]
        for seat in list(extra):
            own = Player.objects.create(
                kind="bot", bot_level=bot.bot_level, display_name=bot.display_name
            )
            Seat.objects.filter(pk=seat.pk).update(player=own)
            for model in (RoundResult, MatchResult):
                model.objects.filter(match_id=seat.match_id, seat=seat.position).update(player=own)
    _checks_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0016_notifications"),
        ("scoring", "0013_bot_seats"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="seat",
            name="seat_one_per_player",
        ),
        migrations.RunPython(merge, split),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=Q(kind="bot"), fields=("bot_level",), name="player_one_per_bot_level"
            ),
        ),
    ]
