"""Tournaments and leagues: services, standings, seating and points."""
