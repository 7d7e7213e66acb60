from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0027_analysis_and_hints"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="results_version",
            field=models.PositiveIntegerField(
                db_default=0,
                default=0,
                help_text="The version that writing the match's results (or writing them again "
                "after a correction) moved it to; 0 before. A write answering the version just "
                "before it still stands: the results changed no score.",
            ),
        ),
    ]
