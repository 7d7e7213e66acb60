"""The Python client generated from the schema plays a whole match of each game against a live
server (clients/python/play_match.py), and runs a mobile app's story through a phone's Web Push
service and an SMTP server (clients/python/mobile_app.py); .ci/run also type-checks both and
runs the TypeScript client."""

from __future__ import annotations

import inspect
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from importlib import import_module
from pathlib import Path
from typing import Any, get_args

import pytest
from drf_spectacular.generators import SchemaGenerator

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients"))

from check import Device, generate_python_client  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)
SCRIPTS = ("play_match", "mobile_app")


@pytest.fixture
def scripts(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The client scripts, importable against a client generated from the schema."""
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(SchemaGenerator().get_schema(request=None, public=True)))
    target = generate_python_client(schema, tmp_path / "client")
    sys.path[:0] = [str(target), str(ROOT / "clients" / "python")]
    try:
        import mobile_app
        import play_match

        yield {"play_match": play_match, "mobile_app": mobile_app}
    finally:
        sys.path.remove(str(target))
        sys.path.remove(str(ROOT / "clients" / "python"))
        for name in [n for n in sys.modules if n in SCRIPTS or n.startswith("chickenfoot_client")]:
            del sys.modules[name]


@pytest.fixture
def play_match(scripts: dict[str, Any]) -> Any:
    return scripts["play_match"].play_match


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
def test_the_generated_python_client_plays_a_whole_match(
    live_server: Any, play_match: Any, variant: str
) -> None:
    played = play_match(live_server.url, variant)

    assert played.rounds == 2
    assert played.moves > 0
    assert sorted(place for place, _, _ in played.places)[0] == 1
    assert len(played.places) == 3


def test_the_generated_python_client_runs_the_mobile_apps_story(
    live_server: Any, scripts: dict[str, Any], settings: Any, tmp_path: Path, capsys: Any
) -> None:
    """Two players: a search, a profile, a friend request accepted; an invitation pushed to a
    phone (decrypted there), accepted, a phrase of the chat read, the board's picture and its
    304, played to the end; a third matched by quick play; a reset by mail; an export, and a
    deletion that leaves the standings and ratings as they were (the script checks each step)."""
    with Device(tmp_path / "device") as device:
        for name, value in device.server_env().items():
            setattr(settings, name, int(value) if name == "EMAIL_PORT" else value)
        settings.OUTSIDE_LOOPBACK_FOR_TESTS = True
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
        settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
        settings.ACCOUNT_LINK_BASE_URL = live_server.url
        # the quick play band widens as cy waits: sweeps pair again, after requests, as on the
        # embedded default (tests turn them off elsewhere)
        settings.SWEEP_ON_REQUEST = True

        assert scripts["mobile_app"].main(["mobile_app.py", live_server.url, device.folder]) == 0

    said = capsys.readouterr().out
    assert "friends: ada found bob-" in said
    assert "chat: bob read ada's" in said
    assert "then a 304 for its ETag" in said
    assert "invited: match" in said
    assert "quick play: cy matched with ada" in said
    assert "password reset: ada logs in with the new password" in said
    assert "standings and ada's rating unchanged" in said
    pushes = sorted((device.folder / "pushes").glob("*.json"))
    kinds = {json.loads(p.read_text())["kind"] for p in pushes}
    assert {"invited", "your_turn", "match_over"} <= kinds
    assert len(list((device.folder / "mail").glob("*.eml"))) == 2


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


def test_the_generated_python_client_hands_pictures_and_printouts_over_as_bytes(
    tmp_path: Path,
) -> None:
    """Every SVG and PDF operation is in the generated client (none left out for its media
    type), and each of its 200s and 304s comes back as bytes (a File), an empty 304 too."""
    import httpx

    document = SchemaGenerator().get_schema(request=None, public=True)
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(document))
    operations = [
        (operation["tags"][0], operation["operationId"], sorted(operation["responses"]))
        for path, item in document["paths"].items()
        if path.endswith((".svg", ".pdf"))
        for operation in item.values()
    ]
    target = generate_python_client(schema, tmp_path / "client")
    sys.path.insert(0, str(target))
    parsed: dict[tuple[str, str], object] = {}
    try:
        from chickenfoot_client.client import Client
        from chickenfoot_client.types import File

        client = Client(base_url="http://127.0.0.1")
        for tag, operation_id, statuses in operations:
            module = import_module(f"chickenfoot_client.api.{tag}.{operation_id}")
            for status, body in (("200", b"%PDF-1.4 or <svg/>"), ("304", b"")):
                if status in statuses:
                    answer = httpx.Response(int(status), content=body)
                    got = module._parse_response(client=client, response=answer)
                    parsed[operation_id, status] = (
                        got.payload.read() == body if isinstance(got, File) else got
                    )
    finally:
        sys.path.remove(str(target))
        for name in [n for n in sys.modules if n.startswith("chickenfoot_client")]:
            del sys.modules[name]

    assert len(operations) >= 10
    assert ("match_board_svg", "304") in parsed
    assert ("match_score_sheet_pdf", "200") in parsed
    assert dict.fromkeys(parsed, True) == parsed


@contextmanager
def generated_client(tmp_path: Path, document: dict[str, Any]) -> Iterator[None]:
    """The Python client generated from ``document``, importable as ``chickenfoot_client``."""
    schema = tmp_path / "schema.json"
    schema.write_text(json.dumps(document))
    target = generate_python_client(schema, tmp_path / "client")
    sys.path.insert(0, str(target))
    try:
        yield
    finally:
        sys.path.remove(str(target))
        for name in [n for n in sys.modules if n.startswith("chickenfoot_client")]:
            del sys.modules[name]


def test_the_generated_python_client_types_each_json_304_as_an_empty_text(
    tmp_path: Path,
) -> None:
    """A JSON answer's 304 is typed (a ``str``, beside the answer's model and the problem), never
    ``Any``, and an empty 304 parses to the empty text, so a poll tells it apart without a cast."""
    import httpx

    document = SchemaGenerator().get_schema(request=None, public=True)
    operations = [
        (operation["tags"][0], operation["operationId"])
        for path, item in document["paths"].items()
        if not path.endswith((".svg", ".webp"))
        for operation in item.values()
        if "304" in operation["responses"]
    ]
    with generated_client(tmp_path, document):
        from chickenfoot_client.client import Client

        client = Client(base_url="http://127.0.0.1")
        parsed, typed = {}, {}
        for tag, operation_id in operations:
            module = import_module(f"chickenfoot_client.api.{tag}.{operation_id}")
            answer = httpx.Response(HTTPStatus.NOT_MODIFIED, content=b"")
            parsed[operation_id] = module._parse_response(client=client, response=answer)
            returned = inspect.signature(module.sync_detailed).return_annotation
            typed[operation_id] = get_args(get_args(returned)[0])

    assert sorted(parsed) == ["legal_moves", "match_detail", "match_rounds"]
    assert set(parsed.values()) == {""}
    for operation_id, members in typed.items():
        assert str in members, (operation_id, members)
        assert Any not in members, (operation_id, members)
