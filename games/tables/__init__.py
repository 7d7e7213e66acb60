"""Table matches: games played with real tiles, scored round by round from a phone.

The server deals nothing. A table match holds its seats (players with accounts, and guests),
its rounds and each round's score entry; the entries go through the same scoring services and
end-of-match task as an online match's rounds (ARCHITECTURE.md, "Two ways a match is played").
"""
