"""Accounts: players' usernames and display names, log-in and its lockout, device tokens.

Its models (``UsernameKey``, ``DeviceToken``) belong to the ``games`` app (``games.models``
imports them), so their tables keep their names. Its API views are in ``games/api/players.py``
and ``games/api/tokens.py``, beside the other views.

- ``names``: usernames compared without regard to case or form; display names that show as
  what they are
- ``username_models``, ``username_keys``: each account's folded username, kept unique
- ``players``: registering, logging in, the player of a user, bot players
- ``token_models``, ``tokens``: a token per device, listed and revoked
- ``authentication``, ``auth_scheme``: the token authentication and its place in the schema
- ``lockout``: refusing log-ins after too many failures (django-axes)
"""
