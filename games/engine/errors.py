"""Errors the engine raises. Each carries what the API needs to render problem JSON.

A ``detail`` (and each message of ``errors``) is English text; a ``games.engine.text.Text`` keeps
its template and values too, so the API can give it in the reader's language.
"""

from __future__ import annotations

from .text import N_, joined


class EngineError(Exception):
    """Base of every engine error.

    ``errors`` is what is wrong, by field (``{"options.rounds": ["..."]}``), when the error is
    about fields of the input; ``rules`` the rule id each of those fields broke, when one did.
    """

    #: HTTP status the API answers with.
    status: int = 422
    #: Short stable machine code.
    code: str = "engine_error"
    title: str = N_("Engine error")

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        errors: dict[str, list[str]] | None = None,
        rules: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.rule = rule
        self.errors = errors
        self.rules = rules or {}

    def __str__(self) -> str:  # pragma: no cover - trivial
        return f"[{self.rule}] {self.detail}" if self.rule else self.detail


class RuleViolation(EngineError):
    """A move that breaks a rule of docs/rules.md; ``rule`` is its id (``CF-FOOT``, ``MT-OPEN``)."""

    status = 422
    code = "rule_violation"
    title = N_("Rule violation")

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(detail, rule=rule)


class NotYourTurn(RuleViolation):
    """A seat acted out of turn (C-SEATS). The API answers 409: the client's view is stale."""

    status = 409
    code = "not_your_turn"
    title = N_("Not your turn")

    def __init__(self, detail: str, rule: str = "C-SEATS") -> None:
        super().__init__(rule, detail)


class RoundOver(RuleViolation):
    """A move was sent to a round or match that has already ended."""

    status = 409
    code = "round_over"
    title = N_("Round over")

    def __init__(self, detail: str, rule: str = "C-ROUNDS") -> None:
        super().__init__(rule, detail)


class MalformedMove(EngineError):
    """A move that is not even well-formed (bad tile, unknown kind, unknown target).

    ``field`` names the part of the move that is wrong (``kind``, ``tile`` or ``target``), when
    one is.
    """

    status = 400
    code = "malformed_move"
    title = N_("Malformed move")

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        errors: dict[str, list[str]] | None = None,
    ) -> None:
        if errors is None and field is not None:
            errors = {field: [detail]}
        rules = {field: rule} if rule and field else {}
        super().__init__(detail, rule=rule, errors=errors, rules=rules)
        self.field = field

    @classmethod
    def combined(cls, found: list[MalformedMove]) -> MalformedMove:
        """One error naming every field of ``found`` (at least one), with the first's rule."""
        if len(found) == 1:
            return found[0]
        errors: dict[str, list[str]] = {}
        rules: dict[str, str] = {}
        for error in found:
            for name, messages in (error.errors or {"move": [error.detail]}).items():
                errors.setdefault(name, []).extend(messages)
            rules.update({name: rule for name, rule in error.rules.items() if name not in rules})
        combined = cls(
            joined(error.detail for error in found),
            rule=next((error.rule for error in found if error.rule), None),
            field=found[0].field,
            errors=errors,
        )
        combined.rules = rules
        return combined


#: Fields a combined ``OptionError``'s detail names (its ``errors`` has them all).
COMBINED_LISTED = 10


class OptionError(EngineError):
    """An unknown house option, or a bad value for one (docs/rules.md §4). The API answers 400.

    ``field`` names what is wrong: ``options.<name>``, ``variant`` or ``seats`` (the seat
    count); ``combined`` makes one error of several, every field listed.
    """

    status = 400
    code = "invalid_option"
    title = N_("Invalid option")

    def __init__(
        self,
        detail: str,
        *,
        rule: str | None = None,
        field: str | None = None,
        errors: dict[str, list[str]] | None = None,
        rules: dict[str, str] | None = None,
    ) -> None:
        if errors is None and field is not None:
            errors = {field: [detail]}
            rules = {field: rule} if rule else {}
        super().__init__(detail, rule=rule, errors=errors, rules=rules)
        self.field = field

    @classmethod
    def combined(cls, found: list[OptionError]) -> OptionError:
        """One error listing every field of ``found`` (at least one): the first's detail and
        rule when it is alone, else a sentence naming them and the first rule broken."""
        if len(found) == 1:
            return found[0]
        errors: dict[str, list[str]] = {}
        rules: dict[str, str] = {}
        for error in found:
            for name, messages in (error.errors or {"options": [error.detail]}).items():
                listed = errors.setdefault(name, [])
                listed.extend(message for message in messages if message not in listed)
            for name, rule in error.rules.items():
                rules.setdefault(name, rule)
        first_rule = next((error.rule for error in found if error.rule), None)
        names = list(errors)
        listed = ", ".join(names[:COMBINED_LISTED])
        detail = (
            N_(
                "Several house options are wrong: %(listed)s and %(more)s more.",
                listed=listed,
                more=f"{len(names) - COMBINED_LISTED:,}",
            )
            if len(names) > COMBINED_LISTED
            else N_("Several house options are wrong: %(listed)s.", listed=listed)
        )
        return cls(
            detail,
            rule=first_rule,
            errors=errors,
            rules=rules,
        )
