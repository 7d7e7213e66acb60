"""The Python client generated from the schema plays a whole match of each game against a live
server (clients/python/play_match.py; .ci/run also type-checks it and runs the TypeScript one)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients"))

from check import generate_python_client  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def play_match(tmp_path: Path) -> Iterator[Any]:
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    target = generate_python_client(schema, tmp_path / "client")
    sys.path[:0] = [str(target), str(ROOT / "clients" / "python")]
    try:
        import play_match as script

        yield script.play_match
    finally:
        sys.path.remove(str(target))
        sys.path.remove(str(ROOT / "clients" / "python"))
        for name in [
            n for n in sys.modules if n == "play_match" or n.startswith("chickenfoot_client")
        ]:
            del sys.modules[name]


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
def test_the_generated_python_client_plays_a_whole_match(
    live_server: Any, play_match: Any, variant: str
) -> None:
    played = play_match(live_server.url, variant)

    assert played.rounds == 2
    assert played.moves > 0
    assert sorted(place for place, _, _ in played.places)[0] == 1
    assert len(played.places) == 3


def test_the_generated_python_client_reads_the_standings_csv_as_text(tmp_path: Path) -> None:
    """The CSV is its own operation: the client hands it over as a string, never parses JSON."""
    import httpx

    from scoring.api.apidocs.standings import CSV_EXAMPLE
    from scoring.api.standings import StandingsCSVRenderer

    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    target = generate_python_client(schema, tmp_path / "client")
    sys.path.insert(0, str(target))
    try:
        from chickenfoot_client.api.competitions import competition_standings_csv
        from chickenfoot_client.client import Client

        body = StandingsCSVRenderer().render({"standings": [], "stage_count": 3})  # the example's
        answer = httpx.Response(
            HTTPStatus.OK, content=body, headers={"Content-Type": "text/csv; charset=utf-8"}
        )
        parsed = competition_standings_csv._parse_response(
            client=Client(base_url="http://127.0.0.1"), response=answer
        )
    finally:
        sys.path.remove(str(target))
        for name in [n for n in sys.modules if n.startswith("chickenfoot_client")]:
            del sys.modules[name]

    assert parsed == body.decode()
    assert parsed.split("\r\n")[0] == CSV_EXAMPLE.split("\r\n")[0]
