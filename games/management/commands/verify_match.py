"""``verify_match <id> [<id> ...]`` or ``--all`` (``make verify MATCH=<id>``, ``make verify-all``).

Replays matches and compares them with what was stored.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Match
from games.services.replay import match_replay_verify


class Command(BaseCommand):
    help = (
        "Replay matches from their seeds and move logs and compare every stored snapshot, "
        "move event and final standing. Exits non-zero if any differs."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("match_ids", nargs="*", type=int, help="Matches to check.")
        parser.add_argument("--all", action="store_true", help="Check every finished match.")

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] = list(options["match_ids"])
        if options["all"]:
            ids += list(
                Match.objects.filter(status=Match.Status.FINISHED, play=Match.Play.ONLINE)
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        if not ids:
            if options["all"]:
                self.stdout.write("No finished match to check.")
                return
            raise CommandError("Name match ids, or pass --all.")
        failed = 0
        for match_id in ids:
            if not Match.objects.filter(pk=match_id).exists():
                raise CommandError(f"There is no match {match_id}.")
            report = match_replay_verify(match_id=match_id)
            if report.ok:
                self.stdout.write(
                    f"match {match_id}: ok ({report.moves} moves, {report.snapshots} snapshots)"
                )
            else:
                failed += 1
                for problem in report.problems:
                    self.stderr.write(f"match {match_id}: {problem}")
        if failed:
            raise CommandError(f"{failed} of {len(ids)} matches differ on replay.")
