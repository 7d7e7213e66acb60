from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_bot_players"),
    ]

    operations = [
        # Safe while the release before runs: on PostgreSQL this is one
        # `ADD COLUMN "language" varchar(8) DEFAULT '' NOT NULL` (a database default: the old
        # code's inserts get ''), which django-migration-linter passes there.
        migrations.AddField(
            model_name="player",
            name="language",
            field=models.CharField(
                blank=True,
                choices=[
                    ("en", "English"),
                    ("lo", "Lao"),
                    ("th", "Thai"),
                    ("hy", "Armenian"),
                    ("ceb", "Cebuano"),
                ],
                db_default="",
                default="",
                help_text="The language the player chose for the pages and the API's answers; "
                "empty: none (the browser's Accept-Language, then English).",
                max_length=8,
            ),
        ),
    ]
