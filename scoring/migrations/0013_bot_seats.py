"""A bot level's one player may hold several seats of a match: the result rows are unique per
(match, seat), no longer per (match, player); a plain (match, player) index serves the queries
the unique one did (the history's opponent filter, head-to-head)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0012_table_leagues"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="matchresult",
            name="matchresult_unique_player",
        ),
        migrations.AddIndex(
            model_name="matchresult",
            index=models.Index(fields=["match", "player"], name="matchresult_match_player"),
        ),
    ]
