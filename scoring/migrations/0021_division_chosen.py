"""Each entrant's ``division_chosen``: whether the organiser chose their division (kept when the
divisions change) or the rating band placed them; with a database default, so the release still
running writes rows the new one reads."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0020_unrated_hints"),
    ]

    operations = [
        migrations.AddField(
            model_name="registration",
            name="division_chosen",
            field=models.BooleanField(
                db_default=False,
                default=False,
                help_text="The organiser chose the division (kept when the divisions change); "
                "otherwise the rating band placed the entrant.",
            ),
        ),
    ]
