"""Invitations to a seat of an open online match, by player or by link, and rematches."""
