"""Errors the engine raises. Each carries what the API needs to render problem JSON."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every engine error."""

    #: HTTP status the API answers with.
    status: int = 422
    #: Short stable machine code.
    code: str = "engine_error"

    def __init__(self, detail: str, *, rule: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rule = rule

    def __str__(self) -> str:  # pragma: no cover - trivial
        return f"[{self.rule}] {self.detail}" if self.rule else self.detail


class RuleViolation(EngineError):
    """A move that breaks a rule of docs/rules.md; ``rule`` is its id (``CF-FOOT``, ``MT-OPEN``)."""

    status = 422
    code = "rule_violation"

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(detail, rule=rule)


class NotYourTurn(RuleViolation):
    """A seat acted out of turn (C-SEATS). The API answers 409: the client's view is stale."""

    status = 409
    code = "not_your_turn"

    def __init__(self, detail: str, rule: str = "C-SEATS") -> None:
        super().__init__(rule, detail)


class RoundOver(RuleViolation):
    """A move was sent to a round or match that has already ended."""

    status = 409
    code = "round_over"

    def __init__(self, detail: str, rule: str = "C-ROUNDS") -> None:
        super().__init__(rule, detail)


class MalformedMove(EngineError):
    """A move that is not even well-formed (bad tile, unknown kind, unknown target).

    ``field`` names the part of the move that is wrong (``kind``, ``tile`` or ``target``), when
    one is.
    """

    status = 400
    code = "malformed_move"

    def __init__(self, detail: str, *, rule: str | None = None, field: str | None = None) -> None:
        super().__init__(detail, rule=rule)
        self.field = field


class OptionError(EngineError):
    """An unknown house option, or a bad value for one (docs/rules.md §4). The API answers 400."""

    status = 400
    code = "invalid_option"
