"""Quick play: join a queue, get matched with players of a like rating, play.

``presets`` names the queues' options and the band formula, ``models`` the queue's rows,
``services`` joining, leaving and the caller's entry, ``pairing`` what fills the tables (after a
join commits, and from the sweeper), ``tasks`` the pairing task.
"""
