"""Players as others see them: a player's profile, and finding a player by name to invite."""
