"""A finished match gets its results even when it cannot be rated (one bot level at every seat
is one player): its result rows say why it was not rated (``unrated_reason``, empty when it
was; a database default, so the release still running writes rows the new one reads). The
matches whose end-of-match task gave up on that (openskill's "at least 2 teams") are pending
again, so the sweeper writes their results."""

from django.db import migrations, models

#: What openskill raised for a match of one player (the marker's ``last_error``).
ONE_TEAM_ERROR = "must have at least 2 teams"


def pending_again(apps, schema_editor):
    MatchFinalisation = apps.get_model("scoring", "MatchFinalisation")
    MatchFinalisation.objects.filter(
        finalised_at__isnull=True, last_error__contains=ONE_TEAM_ERROR
    ).update(failed_at=None, attempts=0)


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0015_tournament_day"),
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
        migrations.RunPython(pending_again, migrations.RunPython.noop),
    ]
