"""The scoring API: history, statistics, head-to-head, the leaderboard; tournaments, leagues and
their standings."""
