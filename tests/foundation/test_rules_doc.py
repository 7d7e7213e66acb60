"""docs/rules.md describes every rule id and house option the code knows, and nothing else.

The rule ids the engine can raise are read from its source (every string constant under
``games/engine/`` that is a rule id), the house options from ``games.engine.options`` (the
variant tables and what ``resolve_options`` fills in), so a rule or an option added to the
engine without a line in docs/rules.md fails here with what to write.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.engine import options as engine_options
from games.engine.errors import OptionError
from games.web.how_to_play import heading_slug

ROOT = Path(__file__).resolve().parents[2]
RULES_DOC = ROOT / "docs" / "rules.md"
ENGINE = ROOT / "games" / "engine"

#: A rule id: C-, CF- or MT- and upper-case words (``CF-FOOT-DEAD``).
RULE_ID = re.compile(r"\b(?:C|CF|MT)-[A-Z][A-Z0-9]*(?:-[A-Z][A-Z0-9]*)*\b")
#: Where rules.md defines an id: a list item that starts with it in bold.
DEFINITION = re.compile(r"^- \*\*((?:C|CF|MT)-[A-Z0-9-]+)\*\*", re.MULTILINE)
#: A row of the house options table: | `name` | games | default | values |
OPTION_ROW = re.compile(r"^\| `([a-z_]+)` \|(.*)\|\s*$", re.MULTILINE)
#: Files whose rule ids must exist in rules.md.
CITING_GLOBS = (
    "README.md",
    "docs/*.md",
    "games/**/*.py",
    "scoring/**/*.py",
    "chickenfoot/**/*.py",
    "benchmarks/**/*.py",
    "tests/**/*.py",
)
GAME_NAMES = {
    engine_options.CHICKENFOOT: "Chicken Foot",
    engine_options.MEXICAN_TRAIN: "Mexican Train",
}
#: Seat counts to read the options' defaults at: every count the API seats.
SEAT_COUNTS = range(2, 23)


def rules_text() -> str:
    return RULES_DOC.read_text(encoding="utf-8")


def defined_ids() -> dict[str, int]:
    """Each id rules.md defines, with how many times."""
    found: dict[str, int] = {}
    for rule in DEFINITION.findall(rules_text()):
        found[rule] = found.get(rule, 0) + 1
    return found


def engine_rule_ids() -> dict[str, set[str]]:
    """Every rule id the engine's source can raise: its string constants that are rule ids.

    Docstrings are left out (they cite rules, which the citation test covers); everything else
    that is a whole rule id is something the engine can put in an error's ``rule``.
    """
    found: dict[str, set[str]] = {}
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and RULE_ID.fullmatch(node.value)
            ):
                found.setdefault(node.value, set()).add(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def option_table() -> dict[str, list[str]]:
    """The house options table of rules.md: name -> [games, default, values]."""
    rows: dict[str, list[str]] = {}
    for name, rest in OPTION_ROW.findall(rules_text()):
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", rest)]
        rows[name] = cells
    return rows


def accepted_options() -> dict[str, set[str]]:
    """Option name -> the games whose ``resolve_options`` accepts it."""
    games: dict[str, set[str]] = {}
    for variant in engine_options.VARIANTS:
        names = set(engine_options.VARIANT_OPTIONS[variant])
        for seats in SEAT_COUNTS:
            try:
                names |= set(engine_options.resolve_options(variant, seats, {}))
            except OptionError:
                continue
        for name in names:
            games.setdefault(name, set()).add(variant)
    return games


def defaults(variant: str, name: str) -> set[str]:
    """The JSON of every default ``resolve_options`` gives ``name`` over the seat counts."""
    seen: set[str] = set()
    for seats in SEAT_COUNTS:
        try:
            resolved: dict[str, Any] = engine_options.resolve_options(variant, seats, {})
        except OptionError:
            continue
        if name in resolved:
            seen.add(json.dumps(resolved[name]))
    return seen


def test_rules_doc_defines_each_id_once() -> None:
    twice = sorted(rule for rule, count in defined_ids().items() if count > 1)
    assert not twice, f"docs/rules.md defines these rule ids more than once: {twice}"
    assert len(defined_ids()) >= 30  # the parser found the definitions at all


def test_every_rule_the_engine_raises_is_in_the_rules_doc() -> None:
    raised = engine_rule_ids()
    assert {"C-SEATS", "CF-FOOT", "MT-OPEN"} <= set(raised)  # the scan sees the raise sites
    missing = {rule: sorted(where) for rule, where in raised.items() if rule not in defined_ids()}
    assert not missing, (
        "The engine can raise rule ids that docs/rules.md does not describe: "
        + "; ".join(f"{rule} (at {', '.join(where)})" for rule, where in sorted(missing.items()))
        + ". Add a list item `- **<ID>** <the rule in a sentence or two>` to the game's section "
        "of docs/rules.md."
    )


def test_every_rule_id_cited_anywhere_exists() -> None:
    defined = defined_ids()
    unknown: dict[str, set[str]] = {}
    for pattern in CITING_GLOBS:
        for path in ROOT.glob(pattern):
            if ".venv" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for rule in RULE_ID.findall(line):
                    if rule not in defined:
                        unknown.setdefault(rule, set()).add(f"{path.relative_to(ROOT)}:{number}")
    assert not unknown, (
        "These rule ids are cited but not defined in docs/rules.md: "
        + "; ".join(
            f"{rule} ({', '.join(sorted(where)[:5])})" for rule, where in sorted(unknown.items())
        )
        + ". Fix the citation, or describe the rule in docs/rules.md."
    )


def test_every_house_option_is_in_the_rules_doc() -> None:
    accepted = accepted_options()
    assert {"spinner_arms", "open_hands", "max_pip"} <= set(accepted)
    table = option_table()
    missing = sorted(set(accepted) - set(table))
    assert not missing, (
        f"resolve_options accepts house options that docs/rules.md §4 does not list: {missing}. "
        "Add a row `| `<name>` | both / Chicken Foot / Mexican Train | <default> | <values> |` "
        "to its table (the default as JSON, e.g. `false` or `30`, or the rule ids that decide it)."
    )
    unknown = sorted(set(table) - set(accepted))
    assert not unknown, f"docs/rules.md §4 lists options the engine refuses: {unknown}"


@pytest.mark.parametrize("name", sorted(accepted_options()))
def test_house_option_row_is_true(name: str) -> None:
    """The row names the games that accept the option, its default and its values."""
    row = option_table().get(name)
    if row is None:
        pytest.fail(f"docs/rules.md §4 has no row for the house option `{name}`")
    assert len(row) == 3, f"the row of `{name}` needs three cells after the name: {row}"
    games_cell, default_cell, values_cell = row
    variants = accepted_options()[name]
    expected_games = (
        "both" if variants == set(engine_options.VARIANTS) else GAME_NAMES[next(iter(variants))]
    )
    assert games_cell == expected_games, (
        f"docs/rules.md §4: `{name}` is accepted by {sorted(variants)}: its games cell should say "
        f"{expected_games!r}, not {games_cell!r}"
    )
    for variant in sorted(variants):
        seen = defaults(variant, name)
        if len(seen) == 1:
            (value,) = seen
            assert f"`{value}`" in default_cell, (
                f"docs/rules.md §4: the default of `{name}` for {variant} is {value}; "
                f"write it as `{value}` in the default cell (now {default_cell!r})"
            )
        else:
            assert RULE_ID.search(default_cell), (
                f"docs/rules.md §4: the default of `{name}` depends on the players "
                f"({sorted(seen)}): the default cell should name the rule ids that decide it"
            )
    assert values_cell, f"docs/rules.md §4: the values cell of `{name}` is empty"


def test_no_doc_or_code_points_at_a_rules_file_outside_the_repository() -> None:
    """The rules live in docs/rules.md; nothing refers to a RULES.md the repository lacks."""
    stale: list[str] = []
    for pattern in (*CITING_GLOBS, "docs/*.md", "pyproject.toml", "Makefile", ".ci/run"):
        for path in ROOT.glob(pattern):
            if ".venv" in path.parts or path == Path(__file__):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if "RULES.md" in line:
                    stale.append(f"{path.relative_to(ROOT)}:{number}")
    assert not stale, (
        f"These lines point at RULES.md, which is not in the repository: {sorted(set(stale))}. "
        "Point them at docs/rules.md (its sections: §1 both games, §2 Chicken Foot, "
        "§3 Mexican Train, §4 house options, §5 moves)."
    )


@pytest.mark.parametrize("variant", engine_options.VARIANTS)
def test_an_unknown_option_is_answered_with_where_the_options_are(variant: str) -> None:
    with pytest.raises(OptionError, match=r"docs/rules\.md §4") as refused:
        engine_options.resolve_options(variant, 4, {"speed": 3})
    assert "speed" in refused.value.detail
    assert RULES_DOC.is_file()


# The rules in the players' languages: docs/rules.<language>.md carries what rules.md does.

#: The translations of docs/rules.md, by language code.
TRANSLATIONS = ("lo", "th", "hy", "ceb")
FENCED = re.compile(r"^```[\w-]*\n.*?^```$", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
HEADING = re.compile(r"^(#+) (.+)$", re.MULTILINE)
ANCHOR_LINK = re.compile(r"\]\(#([^)]+)\)")


def translation(language: str) -> str:
    return (ROOT / "docs" / f"rules.{language}.md").read_text(encoding="utf-8")


def fenced_blocks(text: str) -> list[str]:
    return FENCED.findall(text)


def prose(text: str) -> str:
    """The document without its fenced blocks."""
    return FENCED.sub("", text)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translation_defines_the_same_rules_in_the_same_places(language: str) -> None:
    english, translated = rules_text(), translation(language)
    assert DEFINITION.findall(translated) == DEFINITION.findall(english), (
        f"docs/rules.{language}.md must define the rule ids of docs/rules.md, in its order, each "
        "as a list item `- **<ID>** …`"
    )
    assert set(RULE_ID.findall(translated)) == set(RULE_ID.findall(english))
    for section in range(1, 6):
        assert _section_ids(translated, section) == _section_ids(english, section), (
            f"docs/rules.{language}.md §{section} cites other rule ids than rules.md §{section}"
        )


def _section_ids(text: str, number: int) -> set[str]:
    sections = re.split(r"^## ", text, flags=re.MULTILINE)
    (section,) = (part for part in sections if part.startswith(f"{number}. "))
    return set(RULE_ID.findall(section))


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translation_lists_every_house_option_with_its_codes(language: str) -> None:
    english, translated = rules_text(), translation(language)
    names = [name for name, _ in OPTION_ROW.findall(translated)]
    assert names, f"docs/rules.{language}.md has no house options table"
    assert names == [name for name, _ in OPTION_ROW.findall(english)], (
        f"docs/rules.{language}.md §4 must list the options of docs/rules.md, in its order"
    )
    for name, rest in OPTION_ROW.findall(translated):
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", rest)]
        assert len(cells) == 3, f"rules.{language}.md: the row of `{name}`: {cells}"
        assert all(cells), f"rules.{language}.md: the row of `{name}` has an empty cell"
    # option names, values, codes, fields and targets stay as they are, in code format
    assert set(CODE_SPAN.findall(prose(translated))) == set(CODE_SPAN.findall(prose(english)))
    # the JSON a refused move gets is the API's, and the pictures keep their tiles and targets
    blocks, originals = fenced_blocks(translated), fenced_blocks(english)
    assert len(blocks) == len(originals)
    assert [b for b in blocks if b.startswith("```json")] == [
        b for b in originals if b.startswith("```json")
    ]
    for block, original in zip(blocks, originals, strict=True):
        tiles = re.compile(r"\[\d+[ |]\d+\]|(?:arm|seat|foot):\d+|mexican|\(M\)")
        assert tiles.findall(block) == tiles.findall(original)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_a_translations_headings_and_contents_match(language: str) -> None:
    english, translated = rules_text(), translation(language)
    headings = HEADING.findall(translated)
    assert [level for level, _ in headings] == [level for level, _ in HEADING.findall(english)]
    numbers = [text.split(" ")[0] for level, text in headings if level == "##"]
    assert numbers == ["1.", "2.", "3.", "4.", "5."]
    slugs = {heading_slug(text) for _, text in headings}
    broken = sorted(set(ANCHOR_LINK.findall(translated)) - slugs)
    assert not broken, f"docs/rules.{language}.md links to anchors no heading has: {broken}"
    assert len(ANCHOR_LINK.findall(translated)) == len(ANCHOR_LINK.findall(english))
