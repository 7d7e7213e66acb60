"""Every picture drawn with hostile names: the markup is the same as for a plain name, and each
name comes back as the text or attribute value it was (U+FFFD for what XML cannot hold)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chickenfoot.charts import Series, bar_chart, line_chart
from games import engine
from games.pictures.board import board_svg
from games.pictures.scores import scores_chart
from tests.foundation.hostile import (
    HOSTILE,
    as_attribute,
    as_isolated_text,
    as_text,
    attribute_values,
    shape,
    texts,
)

SCORES = [[5, 0, 12], [3, 8, 0]]


def test_a_plain_name_round_trips() -> None:
    svg = scores_chart(scores=SCORES, names=["Ada", "Grace", "Alan"], title="Match")
    assert "Ada" in attribute_values(svg)
    assert "\u2068Ada\u2069" in texts(svg)  # the legend


@pytest.mark.parametrize("name", HOSTILE)
def test_line_chart(name: str) -> None:
    def chart(who: str) -> str:
        return line_chart(
            who,
            ["start", who],
            [Series(who, [0, 3]), Series("Bob", [0, 5])],
            y_label=who,
            x_label=who,
        )

    svg = chart(name)
    assert shape(svg) == shape(chart("Ada"))
    assert attribute_values(svg).count(as_attribute(name)) == 1 + 2 + 2  # series; 2 points
    shown = texts(svg)
    assert shown.count(as_text(name)) >= 3  # the title, the axis labels, a step
    assert as_isolated_text(name[:22]) in shown  # the legend


@pytest.mark.parametrize("name", HOSTILE)
def test_bar_chart(name: str) -> None:
    def chart(who: str) -> str:
        return bar_chart(who, [(who, 3), ("Bob", 5)], y_label=who)

    svg = chart(name)
    assert shape(svg) == shape(chart("Ada"))
    assert as_attribute(name) in attribute_values(svg)
    assert as_text(name[:14]) in texts(svg)


@pytest.mark.parametrize("name", HOSTILE)
def test_scores_chart(name: str) -> None:
    svg = scores_chart(scores=SCORES, names=["Ada", name, "Alan"], title=name)
    assert shape(svg) == shape(
        scores_chart(scores=SCORES, names=["Ada", "Grace", "Alan"], title="Match")
    )
    assert as_attribute(name) in attribute_values(svg)


@pytest.mark.parametrize("variant", ["chickenfoot", "mexican_train"])
@pytest.mark.parametrize("name", HOSTILE)
def test_board_picture(name: str, variant: str) -> None:
    options = {"open_hands": True} if variant == "mexican_train" else {}
    state = engine.new_match(variant, 3, options, seed="hostile")
    view = engine.view(state, 0)
    hands = [[[1, 2]], [[3, 4]], [[5, 6]]]

    def picture(names: list[str]) -> str:
        return board_svg(view, names=names, caption=names[1], revealed_hands=hands)

    svg = picture(["Ada", name, "Alan"])
    assert shape(svg) == shape(picture(["Ada", "Grace", "Alan"]))
    shown = texts(svg)
    assert as_text(name) in shown  # the caption
    assert f"{as_isolated_text(name)} held" in shown
    assert any(as_text(name) in line for line in shown if "points" in line)  # the seat line
    # mid-round, with (Mexican Train) the others' hands face up under their names
    live = board_svg(view, names=["Ada", name, "Alan"])
    assert shape(live) == shape(board_svg(view, names=["Ada", "Grace", "Alan"]))


def test_every_picture_is_drawn_through_the_escaping_context() -> None:
    """drawsvg's own Drawing writes attribute values unescaped: only chickenfoot.svg makes one."""
    root = Path(__file__).resolve().parents[2]
    sources = [
        p
        for package in ("chickenfoot", "games", "scoring")
        for p in (root / package).rglob("*.py")
        if p != root / "chickenfoot" / "svg.py"
    ]
    assert [p for p in sources if "draw.Drawing(" in p.read_text()] == []


def test_a_right_to_left_override_in_a_name_does_not_reorder_the_text_after_it() -> None:
    """A name is a bidi isolate (U+2068 ... U+2069) wherever text follows it on a line, so
    "\u202eevil: 3 tiles, 10 points" cannot show its figures reversed."""
    name = "\u202eevil"
    state = engine.new_match("mexican_train", 3, {"open_hands": True}, seed="hostile")
    view = engine.view(state, 0)
    shown = texts(board_svg(view, names=["Ada", name, "Alan"], revealed_hands=[[], [], []]))
    isolated = f"\u2068{name}\u2069"
    assert any(line.strip().startswith(f"{isolated}: ") for line in shown)  # the seat line
    assert f"{isolated}'s train" in shown
    assert f"{isolated} held" in shown
    chart = line_chart("t", ["start"], [Series(name, [0])])
    assert isolated in texts(chart)  # the legend
    assert name in attribute_values(chart)  # data-series: the name itself
