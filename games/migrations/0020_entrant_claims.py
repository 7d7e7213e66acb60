"""A claim code may name a guest entrant of a competition rather than a seat: its match and
position become optional (a guest added before any stage has no seat yet)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0019_known_devices"),
    ]

    operations = [
        migrations.AlterField(
            model_name="guestclaim",
            name="match",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="games.match",
            ),
        ),
        migrations.AlterField(
            model_name="guestclaim",
            name="position",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
    ]
