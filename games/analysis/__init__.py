"""Post-game analysis, replays and hints: the strong bot's valuation of a seat's moves from what
that seat knew (docs/engine.md, "Analysis")."""
