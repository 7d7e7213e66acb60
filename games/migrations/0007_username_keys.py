import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from games.accounts.names import username_key


def key_existing_accounts(apps, schema_editor):
    """Give every account its username key, oldest first.

    Two accounts whose usernames differ only in case or Unicode form (possible before keys) cannot
    share one: the older account keeps it, so logging in with any case finds it; a newer one gets
    a key of its own ("<key>#<id>", which no username can produce) and its owner logs in by the
    exact username, as before.
    """
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    key_model = apps.get_model("games", "UsernameKey")
    taken = set(key_model.objects.values_list("key", flat=True))
    rows = []
    for user_id, username in (
        user_model.objects.filter(username_key__isnull=True)
        .order_by("pk")
        .values_list("pk", "username")
    ):
        key = username_key(username)
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        rows.append(key_model(user_id=user_id, key=key))
    key_model.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_device_tokens"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="UsernameKey",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="username_key",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "key",
                    models.CharField(
                        help_text="The username, NFKC-normalised and case-folded (games.accounts.names.username_key).",
                        max_length=500,
                        unique=True,
                    ),
                ),
            ],
        ),
        migrations.RunPython(key_existing_accounts, migrations.RunPython.noop),
    ]
