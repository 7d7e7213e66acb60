"""A round's start is the writer's one clock reading (no longer a second one taken on insert):
rows already stored whose end comes before their start (a table round, a round dealt and ended)
start when they ended, the instant the entry or the deal was written."""

import django.utils.timezone
from django.db import migrations, models
from django.db.models import F


def start_no_later_than_end(apps, schema_editor):
    Round = apps.get_model("games", "Round")
    Round.objects.filter(ended_at__lt=F("started_at")).update(started_at=F("ended_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_entrant_claims"),
    ]

    operations = [
        migrations.AlterField(
            model_name="round",
            name="started_at",
            field=models.DateTimeField(
                default=django.utils.timezone.now,
                help_text="The writer's one clock reading: a round dealt and ended, or entered "
                "at a table, starts and ends at the same instant.",
            ),
        ),
        migrations.RunPython(start_no_later_than_end, migrations.RunPython.noop),
    ]
