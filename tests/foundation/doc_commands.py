"""The shell commands README.md and docs/*.md show, read the way a reader reads them.

A command is a line (with its continuations) of a fenced ``sh``, ``bash``, ``shell`` or
``console`` block (in ``console`` blocks, the lines after ``$ ``), or an inline code span that
starts like a command (``make …``, ``.venv/bin/…``, ``python …``, ``pytest …``, ``docker …``,
``curl …``, ``bash …``, ``VAR=value …``). In a fenced block, ``#`` comment lines right below a
command (no blank line between) are the output it shows; a comment after a blank line describes
what follows.

Shown outputs are compared with what the command prints (``output_problems``):

- ``HTTP/1.1 404 Not Found`` then ``Name: value`` lines then a JSON body (``curl -si``): the
  status code must match, each header named must be sent (``Content-Type``'s value must match;
  other values are examples), and the body is compared as JSON below.
- A JSON value: objects must have exactly the keys shown, unless ``...`` stands among them (then
  at least those keys); ``{...}`` is any object; scalars must be equal. In a list ending with
  ``...`` the items shown are examples: the answer's items need only have the same shape.
- Anything else: each shown line must appear in the output.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)\s*$")
INLINE_CODE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
INLINE_COMMAND = re.compile(
    r"^(make|\.venv/bin/\S+|docker|curl|bash|python[0-9.]*|pip[0-9]*|pytest|ruff|celery|gunicorn"
    r"|[A-Z_]+=\S*)\s+\S"
)


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass
class DocCommand:
    path: Path
    line: int
    text: str
    fenced: bool
    shown: list[str] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def normalised(self) -> str:
        """One line: continuations joined, runs of blanks made one."""
        return " ".join(self.text.replace("\\\n", " ").split())


def _open_constructs(text: str) -> bool:
    """Does ``text`` end inside quotes or a ``$( … )``, or with a continuation?"""
    quote: str | None = None
    depth = 0
    i = 0
    while i < len(text):
        char = text[i]
        if quote == "'":
            if char == "'":
                quote = None
        elif quote == '"':
            if char == "\\":
                i += 1
            elif char == '"':
                quote = None
        elif char == "\\":
            i += 1
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "#" and (i == 0 or text[i - 1].isspace()):
            while i < len(text) and text[i] != "\n":  # a comment runs to the end of the line
                i += 1
            continue
        i += 1
    stripped = text.rstrip()
    return quote is not None or depth > 0 or stripped.endswith(("\\", "|", "&&", "||"))


def _strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (outside quotes)."""
    quote: str | None = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def _block_commands(path: Path, start: int, language: str, lines: list[str]) -> list[DocCommand]:
    commands: list[DocCommand] = []
    current: DocCommand | None = None  # the last complete command, which output may follow
    pending: list[str] = []
    pending_line = 0
    for offset, raw in enumerate(lines):
        number = start + offset
        if language == "console":
            if raw.startswith("$ "):
                commands.append(DocCommand(path, number, raw[2:].strip(), fenced=True))
                current = commands[-1]
            elif current is not None and raw.strip():
                current.shown.append(raw.rstrip())
            continue
        if pending:
            pending.append(raw)
            text = "\n".join(pending)
            if not _open_constructs(text):
                commands.append(DocCommand(path, pending_line, _strip_comment(text), fenced=True))
                current, pending = commands[-1], []
            continue
        stripped = raw.strip()
        if not stripped:
            current = None
            continue
        if stripped.startswith("#"):
            if current is not None:
                current.shown.append(stripped[1:].removeprefix(" ").rstrip())
            continue
        pending, pending_line = [raw], number
        if not _open_constructs(raw):
            commands.append(DocCommand(path, number, _strip_comment(raw), fenced=True))
            current, pending = commands[-1], []
    if pending:
        raise ValueError(f"{path}:{pending_line}: a command is not closed before its block ends")
    return commands


def extract(path: Path) -> list[DocCommand]:
    """Every command ``path`` shows, in document order."""
    commands: list[DocCommand] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match:
            fence, language = match.group(2), match.group(3).lower()
            end = i + 1
            while end < len(lines) and not lines[end].strip().startswith(fence):
                end += 1
            if language in SHELL_LANGUAGES:
                body = [line[len(match.group(1)) :] for line in lines[i + 1 : end]]
                commands += _block_commands(path, i + 2, language, body)
            i = end + 1
            continue
        for span in INLINE_CODE.findall(lines[i]):
            if INLINE_COMMAND.match(span.strip()):
                commands.append(DocCommand(path, i + 1, span.strip(), fenced=False))
        i += 1
    return commands


def all_commands() -> list[DocCommand]:
    return [command for path in documents() for command in extract(path)]


# --- Shown outputs --------------------------------------------------------------------------


class _Any:
    def __repr__(self) -> str:  # pragma: no cover - for failure messages
        return "..."


ELLIPSIS = _Any()


@dataclass
class ObjectPattern:
    keys: dict[str, Any]
    open: bool


@dataclass
class ListPattern:
    items: list[Any]
    open: bool


class _Parser:
    """JSON with ``...`` allowed as an object member or a list item (``{...}``: any object)."""

    TOKEN = re.compile(
        r'\s*(?:(\.\.\.|…)|("(?:[^"\\]|\\.)*")|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)'
        r"|(true|false|null)|([{}\[\]:,]))"
    )

    def __init__(self, text: str) -> None:
        self.tokens: list[tuple[str, str]] = []
        position = 0
        text = text.strip()
        while position < len(text):
            match = self.TOKEN.match(text, position)
            if not match:
                raise ValueError(f"not JSON at {text[position : position + 20]!r}")
            kinds = ("more", "string", "number", "literal", "punct")
            kind = next(k for k, g in zip(kinds, match.groups(), strict=True) if g is not None)
            self.tokens.append((kind, match.group(match.lastindex or 0)))
            position = match.end()
            while position < len(text) and text[position].isspace():
                position += 1
        self.at = 0

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.at]

    def value(self) -> Any:
        kind, text = self.take()
        if kind == "more":
            return ELLIPSIS
        if kind == "string" or kind == "number" or kind == "literal":
            return json.loads(text)
        if text == "{":
            keys: dict[str, Any] = {}
            open_ = False
            while self.peek()[1] != "}":
                if self.peek()[0] == "more":
                    self.take()
                    open_ = True
                else:
                    key = json.loads(self.take()[1])
                    if self.take()[1] != ":":
                        raise ValueError("expected ':'")
                    keys[key] = self.value()
                if self.peek()[1] == ",":
                    self.take()
            self.take()
            return ObjectPattern(keys, open_)
        if text == "[":
            items: list[Any] = []
            open_ = False
            while self.peek()[1] != "]":
                item = self.value()
                if item is ELLIPSIS:
                    open_ = True
                else:
                    items.append(item)
                if self.peek()[1] == ",":
                    self.take()
            self.take()
            return ListPattern(items, open_)
        raise ValueError(f"unexpected {text!r}")


def parse_pattern(text: str) -> Any:
    parser = _Parser(text)
    value = parser.value()
    if parser.at != len(parser.tokens):
        raise ValueError("text after the JSON value")
    return value


def _shape(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return type(value)
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return ["list", len(value), *[_shape(item) for item in value]]
    if isinstance(value, dict):
        return "object"
    return type(value)


def match_json(expected: Any, actual: Any, where: str = "$", example: bool = False) -> list[str]:
    """How ``actual`` differs from the shown ``expected`` (empty when it matches)."""
    if expected is ELLIPSIS:
        return []
    if isinstance(expected, ObjectPattern):
        if not isinstance(actual, dict):
            return [f"{where}: shown an object, got {actual!r}"]
        problems = []
        for key, value in expected.keys.items():
            if key not in actual:
                problems.append(f"{where}: shown key {key!r} is not in the answer")
            else:
                problems += match_json(value, actual[key], f"{where}.{key}", example)
        if not expected.open and set(actual) != set(expected.keys):
            extra = sorted(set(actual) - set(expected.keys))
            problems.append(f"{where}: the answer has keys the docs do not show: {extra}")
        return problems
    if isinstance(expected, ListPattern):
        if not isinstance(actual, list):
            return [f"{where}: shown a list, got {actual!r}"]
        if expected.open:
            if len(actual) < len(expected.items):
                return [f"{where}: shown at least {len(expected.items)} items, got {len(actual)}"]
            return [
                problem
                for i, item in enumerate(expected.items)
                for problem in match_json(item, actual[i], f"{where}[{i}]", example=True)
            ]
        if len(actual) != len(expected.items):
            return [f"{where}: shown {len(expected.items)} items, got {len(actual)}"]
        return [
            problem
            for i, item in enumerate(expected.items)
            for problem in match_json(item, actual[i], f"{where}[{i}]", example)
        ]
    if example:
        if _shape(expected) != _shape(actual):
            return [f"{where}: shown {expected!r} as an example, got {actual!r}"]
        return []
    if expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        return [f"{where}: shown {expected!r}, got {actual!r}"]
    return []


def _parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def output_problems(shown: list[str], output: str) -> list[str]:
    """How ``output`` differs from the ``shown`` lines (empty when it matches)."""
    if not shown:
        return []
    first = shown[0].strip()
    if first.startswith("HTTP/"):
        head, _, body = output.replace("\r\n", "\n").partition("\n\n")
        head_lines = head.splitlines()
        problems: list[str] = []
        if not head_lines or not head_lines[0].startswith("HTTP/"):
            return [f"shown an HTTP answer, got {output[:200]!r}"]
        if first.split()[1] != head_lines[0].split()[1]:
            problems.append(f"status: shown {first!r}, got {head_lines[0]!r}")
        headers = {}
        for line in head_lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        rest = shown[1:]
        while rest and re.match(r"^[A-Za-z][A-Za-z0-9-]*: ", rest[0].strip()):
            name, _, value = rest.pop(0).strip().partition(": ")
            if name.lower() not in headers:
                problems.append(f"header {name} is shown but not sent")
            elif name.lower() == "content-type":
                wanted = value.split()[0].rstrip(";")
                if headers["content-type"].split(";")[0] != wanted:
                    problems.append(f"Content-Type: shown {wanted}, got {headers['content-type']}")
        if rest:
            problems += _body_problems(rest, body)
        return problems
    return _body_problems(shown, output)


def _body_problems(shown: list[str], output: str) -> list[str]:
    text = " ".join(line.strip() for line in shown)
    if text.startswith(("{", "[")):
        try:
            pattern = parse_pattern(text)
        except (ValueError, IndexError) as error:
            return [f"the shown output {text!r} is not JSON with '...' ({error})"]
        actual = _parse_json(output.strip())
        if actual is None:
            return [f"shown JSON, got {output.strip()[:300]!r}"]
        return match_json(pattern, actual)
    return [
        f"shown {line.strip()!r}, which is not in the output {output[:300]!r}"
        for line in shown
        if line.strip() not in output
    ]
