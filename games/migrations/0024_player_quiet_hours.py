from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_player_avatar"),
    ]

    operations = [
        # Safe while the release before runs: on PostgreSQL two nullable `ADD COLUMN`s and one
        # `ADD COLUMN "time_zone" varchar(64) DEFAULT '' NOT NULL` (a database default: the old
        # code's inserts get no quiet hours, as every player has had until now).
        migrations.AddField(
            model_name="player",
            name="quiet_hours_end",
            field=models.TimeField(
                blank=True,
                help_text="Until this time of day (the next day's if before the start), pushes "
                "wait in the inbox.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="quiet_hours_start",
            field=models.TimeField(
                blank=True,
                help_text="From this time of day in the player's time zone, pushes wait in the "
                "inbox; empty (with the end): no quiet hours.",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="player",
            name="time_zone",
            field=models.CharField(
                blank=True,
                db_default="",
                default="",
                help_text="The player's IANA time zone (Europe/Paris, Asia/Vientiane), for their "
                "quiet hours; empty: UTC.",
                max_length=64,
            ),
        ),
    ]
