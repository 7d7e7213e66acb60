"""The final table: after a tournament's last Swiss stage, its best ``n`` play one more stage
whose result decides places 1 to ``n`` (docs/scoring.md, "Final table").

``final_table: {"size": n}`` on the competition: ``n`` from 2 to the table size, or 4 at tables
of 2 (two tables: the first two of the standings play for places 1 and 2, the next two for 3
and 4); with bots filling tables, a final plays full tables only (``n`` is the table size, or 4
at tables of 2). The final is stage ``stage_count + 1`` (``Stage.final``), started, checked in
for, changed and scored like any other stage. Its field is the best ``n`` of the standings
among the players the stage may seat (not dropped out, checked in at a table event); its seat
order is drawn from the seed. Its results are kept and shown (the crosstable, each player's
history) but do not count in the Swiss totals or their tie-breaks, so the players outside the
final keep their standings places. Once it has finished, the finalists rank first: by table,
then by their place at it (a shared place in the final is a shared rank; the Swiss order
lists them), a finalist whose table was abandoned last of that table; every other player keeps
their rank, or ``n + 1`` if the final moved them below it. At an event with divisions each
division's best ``n`` play a final of their own, for their division's places.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import Competition, CompetitionMatch, CompetitionResult, Stage

#: A final's tables are player ids in seat order (no bots).
Tables = list[list[int | None]]


def allowed_sizes(*, table_size: int, allow_bots: bool) -> list[int]:
    """The sizes a final may have at tables of ``table_size``."""
    sizes = [table_size] if allow_bots else list(range(2, table_size + 1))
    return [*sizes, 4] if table_size == 2 else sizes


def size_problems(*, value: Any, kind: str | None, table_size: Any, allow_bots: Any) -> list[str]:
    """What is wrong with ``final_table`` (``{"size": n}`` or ``None``) for a competition of
    ``kind`` at tables of ``table_size``; nothing for ``None``."""
    if value is None:
        return []
    if kind == Competition.Kind.LEAGUE:
        return [_("A league has no stages, so no final table: leave final_table out.")]
    if not isinstance(table_size, int) or table_size < 2:
        return []
    sizes = allowed_sizes(table_size=table_size, allow_bots=bool(allow_bots))
    if value.get("size") not in sizes:
        return [
            _("final_table's size is one of %(sizes)s at tables of %(table_size)s; got %(size)s.")
            % {
                "sizes": ", ".join(map(str, sizes)),
                "table_size": table_size,
                "size": value.get("size"),
            }
        ]
    return []


def is_final(competition: Competition, number: int) -> bool:
    """Whether stage ``number`` of ``competition`` is its final table."""
    return bool(competition.final_size) and number == competition.last_stage


def final_tables(*, ranked: list[int], size: int, table_size: int, rng: random.Random) -> Tables:
    """The final's tables for ``ranked`` (the field best first): the best ``size`` at one
    table, or at tables of 2 two by two in standings order; a player left alone at tables of 2
    does not play it. Each table's seat order is shuffled from ``rng``."""
    if size < 2:
        return []
    finalists = ranked[:size]
    per_table = table_size if size > table_size else size
    tables: Tables = []
    for start in range(0, len(finalists), per_table):
        table: list[int | None] = list(finalists[start : start + per_table])
        if len(table) >= 2:
            rng.shuffle(table)
            tables.append(table)
    return tables


def final_places(
    competition: Competition, players: Collection[int] | None = None
) -> dict[int, int] | None:
    """Each finalist's place (1 to ``n``) once the final has finished; ``None`` before (or
    without one). The module says how places are given. ``players``: one division's entrants
    (each division plays a final of its own): only the final's tables they sit at."""
    if not competition.final_size:
        return None
    stage = Stage.objects.filter(
        competition=competition, final=True, status=Stage.Status.FINISHED
    ).first()
    if stage is None:
        return None
    seats: dict[int, list[int]] = {}
    for table_number, player_id in (
        CompetitionMatch.objects.filter(stage=stage)
        .order_by("table_number", "match__seats__position")
        .values_list("table_number", "match__seats__player_id")
    ):
        if player_id is not None and (players is None or player_id in players):
            seats.setdefault(table_number, []).append(player_id)
    results = dict(CompetitionResult.objects.filter(stage=stage).values_list("player_id", "place"))
    places: dict[int, int] = {}
    offset = 0
    for number in sorted(seats):
        seated = seats[number]
        for player_id in seated:
            places[player_id] = offset + results.get(player_id, len(seated))
        offset += len(seated)
    return places


def apply_final(rows: list[dict[str, Any]], places: dict[int, int] | None) -> list[dict[str, Any]]:
    """The standings rows (ranked, best first, each with ``rank`` and ``ranked``) with the
    final's places: finalists first by their place (the Swiss order among equals), the others
    after them, each at their rank or ``n + 1`` at best; ``shared`` again, and each row's
    ``final_place``."""
    for row in rows:
        row["final_place"] = (places or {}).get(row["player_id"])
    if not places:
        return rows
    floor = len(places) + 1
    position = {row["player_id"]: index for index, row in enumerate(rows)}
    finalists = sorted(
        (row for row in rows if row["player_id"] in places),
        key=lambda row: (places[row["player_id"]], position[row["player_id"]]),
    )
    others = [row for row in rows if row["player_id"] not in places]
    for row in finalists:
        row["rank"] = places[row["player_id"]]
        row["ranked"] = True
    for row in others:
        row["rank"] = max(row["rank"], floor)
    out = finalists + others
    counts = Counter(row["rank"] for row in out if row["ranked"])
    for row in out:
        row["shared"] = bool(row["ranked"]) and counts[row["rank"]] > 1
    return out
