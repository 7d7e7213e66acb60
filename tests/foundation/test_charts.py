"""The SVG charts: every mark stands for its value, read back from the document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from chickenfoot.charts import Series, bar_chart, line_chart

SVG = "{http://www.w3.org/2000/svg}"


def marks(svg: str, tag: str, cls: str) -> list[dict[str, str]]:
    root = ET.fromstring(svg)  # noqa: S314 (our own output)
    return [dict(e.attrib) for e in root.iter(f"{SVG}{tag}") if e.get("class") == cls]


def test_line_chart_points_and_gaps() -> None:
    svg = line_chart(
        "Rating",
        ["m1", "m2", "m3"],
        [Series("Ada", [25.0, None, 27.5]), Series("Bob", [20.0, 21.0, 19.0])],
    )
    points = {
        (p["data-series"], p["data-step"]): p["data-value"] for p in marks(svg, "circle", "point")
    }
    assert points == {
        ("Ada", "m1"): "25",
        ("Ada", "m3"): "27.5",
        ("Bob", "m1"): "20",
        ("Bob", "m2"): "21",
        ("Bob", "m3"): "19",
    }
    assert [t["class"] for t in marks(svg, "text", "legend")] == ["legend", "legend"]
    # Higher values are drawn higher up (smaller y).
    ys = {
        p["data-step"]: float(p["cy"])
        for p in marks(svg, "circle", "point")
        if p["data-series"] == "Bob"
    }
    assert ys["m2"] < ys["m1"] < ys["m3"]


def test_bar_chart_and_empty_charts() -> None:
    svg = bar_chart("Points by stage", [("Stage 1", 5), ("Stage 2", 3), ("Stage 3", 0)])
    bars = marks(svg, "rect", "bar")
    assert [(b["data-label"], b["data-value"]) for b in bars] == [
        ("Stage 1", "5"),
        ("Stage 2", "3"),
        ("Stage 3", "0"),
    ]
    assert float(bars[0]["height"]) > float(bars[1]["height"]) > float(bars[2]["height"]) == 0
    assert marks(line_chart("Empty", [], []), "text", "empty")
    assert marks(bar_chart("Empty", []), "text", "empty")
