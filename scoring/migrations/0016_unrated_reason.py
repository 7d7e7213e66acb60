"""A finished match gets its results even when it cannot be rated (one bot level at every seat
is one player): its result rows say why it was not rated (``unrated_reason``, empty when it
was; a database default, so the release still running writes rows the new one reads): the
results already written of a match one player held (a level's bots merged into one player by
games/0017) are marked so. The matches whose end-of-match task gave up on that (openskill's
"at least 2 teams") are pending again, so the sweeper writes their results."""

from django.db import migrations, models
from django.db.models import Count

#: What openskill raised for a match of one player (the marker's ``last_error``).
ONE_TEAM_ERROR = "must have at least 2 teams"
SINGLE_RATED_PLAYER = "single_rated_player"


def pending_again(apps, schema_editor):
    MatchFinalisation = apps.get_model("scoring", "MatchFinalisation")
    MatchFinalisation.objects.filter(
        finalised_at__isnull=True, last_error__contains=ONE_TEAM_ERROR
    ).update(failed_at=None, attempts=0)


def mark_unrated(apps, schema_editor):
    """The results of a match one player held every seat of (bots of one level whose players
    ``games/0017_bot_players`` merged) say that it was not rated."""
    MatchResult = apps.get_model("scoring", "MatchResult")
    alone = (
        MatchResult.objects.values("match_id")
        .annotate(players=Count("player_id", distinct=True))
        .filter(players=1)
        .values("match_id")
    )
    MatchResult.objects.filter(match_id__in=alone).update(unrated_reason=SINGLE_RATED_PLAYER)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_tournament_day"),
        ("games", "0017_bot_players"),  # a bot level's seats are one player from it on
    ]

    operations = [
        migrations.AddField(
            model_name="matchresult",
            name="unrated_reason",
            field=models.CharField(
                blank=True,
                choices=[("single_rated_player", "One player held every seat")],
                db_default="",
                default="",
                help_text="Why the match was not rated (the same on each of its rows); empty: it was.",
                max_length=24,
            ),
        ),
        migrations.RunPython(mark_unrated, migrations.RunPython.noop),
        migrations.RunPython(pending_again, migrations.RunPython.noop),
    ]
