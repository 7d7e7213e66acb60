"""factory_boy factories for the games app."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from games.accounts.tokens import token_issue
from games.engine.shuffle import new_match_seed
from games.models import Match, Player, Seat


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    password = factory.django.Password("a-long-enough-passphrase")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    kind = Player.Kind.HUMAN
    display_name = factory.LazyAttribute(lambda p: p.user.username.title())


class BotFactory(factory.django.DjangoModelFactory):
    """The player of a bot level (one per level: a second call returns the first's)."""

    class Meta:
        model = Player
        django_get_or_create = ("kind", "bot_level")

    user = None
    kind = Player.Kind.BOT
    bot_level = 2
    display_name = factory.Sequence(lambda n: f"Bot {n}")


class MatchFactory(factory.django.DjangoModelFactory):
    """An open match with ``seat_count`` empty seats (the creator is not seated)."""

    class Meta:
        model = Match
        skip_postgeneration_save = True

    variant = Match.Variant.CHICKENFOOT
    options = factory.LazyAttribute(lambda m: _resolved(m.variant, m.seat_count))
    seat_count = 3
    seed = factory.LazyFunction(new_match_seed)
    created_by = factory.SubFactory(PlayerFactory)

    @factory.post_generation
    def seats(self, create: bool, extracted: object, **kwargs: object) -> None:
        if create:
            Seat.objects.bulk_create(Seat(match=self, position=i) for i in range(self.seat_count))


def _resolved(variant: str, seats: int) -> dict:
    from games.engine import resolve_options

    return resolve_options(variant, seats, {})


def token_for(player: Player, device: str = "") -> str:
    """A new token (the key) for ``player``, as a login from ``device`` would give."""
    _, key = token_issue(user=player.user, device=device)
    return key
