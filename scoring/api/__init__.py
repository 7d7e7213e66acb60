"""The scoring API: history, statistics, head-to-head and the leaderboard (read-only)."""
