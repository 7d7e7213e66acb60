"""The accounts' models live in games/accounts but belong to the games app: their tables and
migrations are the games app's, as before the package held them."""

from __future__ import annotations

import pytest
from django.apps import apps

from games.accounts.token_models import DeviceToken
from games.accounts.username_models import UsernameKey


@pytest.mark.parametrize(
    ("model", "table"), [(UsernameKey, "games_usernamekey"), (DeviceToken, "games_devicetoken")]
)
def test_account_models_keep_the_games_app_and_its_tables(model: type, table: str) -> None:
    assert model._meta.app_label == "games"
    assert model._meta.db_table == table
    assert apps.get_model("games", model.__name__) is model
