from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_round_start_one_clock"),
    ]

    operations = [
        # Safe while the release before runs: on PostgreSQL one `ADD COLUMN
        # "profile_visibility" varchar(8) DEFAULT 'everyone' NOT NULL` (a database default: the
        # old code's inserts get 'everyone', as every player has had until now).
        migrations.AddField(
            model_name="player",
            name="profile_visibility",
            field=models.CharField(
                choices=[("everyone", "Everyone"), ("friends", "Friends"), ("nobody", "Nobody")],
                db_default="everyone",
                default="everyone",
                help_text="Who sees the player's profile, history, statistics and head-to-head: "
                "everyone, friends (for now the player alone: there are no friends yet) or "
                "nobody (the player alone). Their name and avatar are shown to everyone.",
                max_length=8,
            ),
        ),
    ]
