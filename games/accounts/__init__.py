"""Accounts: players' usernames and display names, log-in and its lockout, device tokens,
e-mail addresses, passwords, and a player's data.

Its models (``UsernameKey``, ``DeviceToken``, ``KnownDevice``) belong to the ``games`` app
(``games.models`` imports them), so their tables keep their names. Its API views are in
``games/api/players.py`` and ``games/api/tokens.py``, beside the other views.

- ``names``: usernames compared without regard to case or form; display names that show as
  what they are
- ``username_models``, ``username_keys``: each account's folded username, kept unique
- ``players``: registering, logging in, the player of a user, bot players
- ``token_models``, ``tokens``: a token per device, listed and revoked
- ``authentication``, ``auth_scheme``: the token authentication and its place in the schema
- ``lockout``: refusing log-ins after too many failures (django-axes)
- ``device_models``, ``devices``: the known devices and their signed credentials, which get a
  client that has logged in before past floods and its account's lockout
- ``addresses``: each player's e-mail address, set and verified
- ``links``, ``link_pages``, ``urls``: the tokens of account mails' links, and the pages they open
- ``mail``: the account mails and the task that sends them after commit
- ``passwords``: checking, changing and resetting a password
- ``export``, ``deletion``: everything kept about a player; deleting an account
"""
