"""Quick chat at a match's table: a fixed list of phrases and emotes, no free text.

``phrases`` holds the list, ``models`` the rows, ``services`` sending and muting, ``reading``
what each player is shown (in their own language, muted and hidden senders left out).
"""
