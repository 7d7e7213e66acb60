"""A player's notifications: an inbox of rows, pushed on the player's socket and to devices.

``models`` (inbox, preferences, devices, deliveries), ``kinds`` (what each kind says),
``services`` (``notify`` and one function per kind, the inbox, preferences, devices),
``delivery`` (the task that pushes after commit), ``webpush`` and ``native`` (the senders),
``socket`` (``/ws/me/``).
"""
