import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0022_player_profile_visibility'),
    ]

    operations = [
        migrations.CreateModel(
            name='PlayerAvatar',
            fields=[
                ('player', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='avatar', serialize=False, to='games.player')),
                ('large', models.CharField(db_index=True, help_text='SHA-256 of the 256-pixel WebP file.', max_length=64)),
                ('small', models.CharField(db_index=True, help_text='SHA-256 of the 64-pixel WebP file.', max_length=64)),
                ('uploaded_at', models.DateTimeField(auto_now=True)),
            ],
        ),
    ]
