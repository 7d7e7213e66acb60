"""A player's notifications: an inbox of rows, pushed on the player's socket and to devices.

``models`` (inbox, preferences, devices, deliveries), ``kinds`` (what each kind says),
``envelope`` (a notification as every channel shows it), ``services`` (``notify`` and one
function per kind, the inbox, preferences, devices), ``delivery`` (the task that pushes after
commit), ``webpush`` and ``native`` (the senders), ``socket`` (``/ws/me/``). Imports point one
way (pyproject's import-linter contract): the socket and the inbox over the writes, which queue
the delivery, which sends through the senders; the delivery never imports the writes.
"""
