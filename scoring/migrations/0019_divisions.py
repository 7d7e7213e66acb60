"""Divisions: a tournament's ``divisions`` (null: none) and each entrant's ``division`` (empty:
none); with database defaults, so the release still running writes rows the new one reads."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0018_formats"),
    ]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="divisions",
            field=models.JSONField(
                blank=True,
                help_text='Tournaments: [{"name": "A", "min_rating": 1600}, {"name": "B"}]: sections of the event, each seated and ranked on its own (docs/scoring.md, Divisions); null: none.',
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="division",
            field=models.CharField(
                blank=True,
                db_default="",
                default="",
                help_text="The entrant's division (its name) at an event with divisions; empty: none.",
                max_length=64,
            ),
        ),
    ]
