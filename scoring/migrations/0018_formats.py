"""Formats: a tournament's ``final_table`` (null: none) and the stage that plays it
(``final``), and its ``pairing`` (Swiss, or a round robin); with database defaults, so the
release still running writes rows the new one reads."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0017_stage_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="pairing",
            field=models.CharField(
                choices=[
                    ("swiss", "Swiss: each stage by the standings"),
                    ("round_robin", "Round robin: everyone meets everyone once"),
                ],
                db_default="swiss",
                default="swiss",
                help_text="Tournaments: how stages are paired (docs/scoring.md, Round robin).",
                max_length=11,
            ),
        ),
        migrations.AddField(
            model_name="competition",
            name="final_table",
            field=models.JSONField(
                blank=True,
                help_text='Tournaments: {"size": n}: after the last Swiss stage the top n play a final stage that decides places 1 to n (docs/scoring.md, Final table); null: none.',
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="stage",
            name="final",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="The final table (after the last Swiss stage): its results decide places 1 to n and do not count in the Swiss totals.",
            ),
        ),
    ]
