"""The organiser's tournament day: entrants added by the organiser (club, seed, the first stage
a late entrant may play, guests too), late-entry scoring, seeding and keep-apart, and a stage's
seating as the organiser changes it (its version, locked tables, a reopening, a stale pairing,
and the audit of every change). Every new column has a database default, so the release still
running writes rows the new one reads."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_tie_breaks"),
    ]

    operations = [
        migrations.AddField(
            model_name="bye",
            name="late_entry",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="A stage missed by a late entrant (late_entry: bye), not an odd field's bye.",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="keep_apart_clubs",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="Entrants of one club are not seated together when an equally good seating keeps them apart (docs/scoring.md).",
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="late_entry",
            field=models.CharField(
                choices=[
                    ("zero", "Nothing for the stages missed"),
                    ("bye", "A bye's points for each stage missed"),
                ],
                db_default="zero",
                default="zero",
                help_text="What an entrant added once stages were seated scores for the stages missed.",
                max_length=4,
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="seeding",
            field=models.CharField(
                choices=[
                    ("random", "At random from the stored seed"),
                    ("rating", "By rating in the game, best first"),
                    ("order", "In the organiser's order (each entrant's seed)"),
                ],
                db_default="random",
                default="random",
                help_text="How stage 1 orders the field before seating it (docs/scoring.md).",
                max_length=6,
            ),
        ),
        migrations.AddField(
            model_name="competitionmatch",
            name="locked",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="The organiser keeps this table as it is.",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="added_by_organiser",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.AddField(
            model_name="registration",
            name="club",
            field=models.CharField(
                blank=True,
                db_default="",
                default="",
                help_text="As the organiser wrote it.",
                max_length=64,
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="first_stage",
            field=models.PositiveSmallIntegerField(
                db_default=1,
                default=1,
                help_text="The first stage the entrant may be seated at: a late entrant's is the one after the stage seated when they were added.",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="seed",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="The organiser's order (1 first): seeding by order.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="stage",
            name="pairing_stale",
            field=models.JSONField(
                blank=True,
                help_text="Set when a correction of an earlier stage changed the standings it was seated from: what changed (docs/scoring.md); cleared by a re-pair.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="stage",
            name="seating_reopened_at",
            field=models.DateTimeField(
                blank=True,
                help_text="When the organiser reopened its seating after scores were entered.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="stage",
            name="version",
            field=models.PositiveIntegerField(
                db_default=0,
                default=0,
                help_text="Its seating's version: each change by the organiser adds one (ETag, If-Match).",
            ),
        ),
        migrations.CreateModel(
            name="KeepApart",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="keep_apart",
                        to="scoring.competition",
                    ),
                ),
                (
                    "player_a",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.player",
                    ),
                ),
                (
                    "player_b",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.player",
                    ),
                ),
            ],
            options={
                "ordering": ["competition", "player_a", "player_b"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("competition", "player_a", "player_b"), name="keep_apart_once"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("player_a__lt", models.F("player_b"))),
                        name="keep_apart_ordered_pair",
                    ),
                ],
            },
        ),
        migrations.CreateModel(
            name="SeatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("stage_number", models.PositiveSmallIntegerField()),
                (
                    "version",
                    models.PositiveIntegerField(help_text="The stage's seating version after it."),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("swap", "Two entrants changed seats"),
                            ("move", "An entrant moved to another table"),
                            ("replace", "An entrant took a no-show's seat"),
                            ("re_pair", "The stage was paired again"),
                            ("lock", "A table was locked"),
                            ("unlock", "A table was unlocked"),
                            ("reopen", "The seating was reopened after scores were entered"),
                            ("undo", "The stage was undone"),
                        ],
                        max_length=8,
                    ),
                ),
                ("at", models.DateTimeField()),
                (
                    "reason",
                    models.TextField(
                        blank=True, default="", help_text="As the organiser wrote it."
                    ),
                ),
                ("players", models.JSONField(default=list, help_text="The entrants it was about.")),
                (
                    "tables",
                    models.JSONField(
                        default=list, help_text="The tables it touched, before and after."
                    ),
                ),
                (
                    "byes",
                    models.JSONField(
                        blank=True,
                        help_text="The stage's byes before and after, when they changed.",
                        null=True,
                    ),
                ),
                (
                    "by",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to="games.player",
                    ),
                ),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seating_changes",
                        to="scoring.competition",
                    ),
                ),
            ],
            options={
                "ordering": ["competition", "pk"],
                "indexes": [
                    models.Index(
                        fields=["competition", "stage_number"], name="seating_change_stage"
                    )
                ],
            },
        ),
    ]
