"""Commands: what a seat (or the service, for joins and timeouts) asks the engine to do.

Each command has a canonical body, the JSON shape of ../shared/API.md (`body()`), and is
built back from one by `parse_command`, which raises IllegalCommand(Code.INVALID) on a bad shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import invalid

BET_VALUES = {"parity": ("even", "odd"), "size": ("small", "big"), "coin": ("heads", "tails")}


@dataclass(frozen=True, slots=True)
class Play:
    card: str
    effect: int
    scope: str
    target: int | None

    def body(self) -> dict[str, Any]:
        return {
            "type": "play",
            "card": self.card,
            "effect": self.effect,
            "scope": self.scope,
            "target": self.target,
        }


@dataclass(frozen=True, slots=True)
class Block:
    card: str

    def body(self) -> dict[str, Any]:
        return {"type": "block", "card": self.card}


@dataclass(frozen=True, slots=True)
class Pass:
    def body(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class ChooseNeighbor:
    neighbor: int

    def body(self) -> dict[str, Any]:
        return {"type": "choose_neighbor", "neighbor": self.neighbor}


@dataclass(frozen=True, slots=True)
class Bet:
    kind: str
    value: str

    def body(self) -> dict[str, Any]:
        return {"type": "bet", "kind": self.kind, "value": self.value}


@dataclass(frozen=True, slots=True)
class Handoff:
    card: str | None
    to: int | None

    def body(self) -> dict[str, Any]:
        return {"type": "handoff", "card": self.card, "to": self.to}


@dataclass(frozen=True, slots=True)
class Join:
    """The service seats a player (seat None = the first free seat)."""

    name: str
    seat: int | None = None
    bot: bool = False


@dataclass(frozen=True, slots=True)
class Timeout:
    """The service reports that the pending decision's deadline passed (R21)."""


Command = Play | Block | Pass | ChooseNeighbor | Bet | Handoff | Join | Timeout
PLAYER_COMMANDS = ("play", "block", "pass", "choose_neighbor", "bet", "handoff")


def _field(body: dict[str, Any], name: str, kind: type | tuple[type, ...], nullable: bool = False):
    if name not in body:
        raise invalid(f"missing field {name!r}")
    value = body[name]
    if value is None and nullable:
        return None
    # bool is an int in Python; a seat or an effect index must not be true/false.
    if isinstance(value, bool) and kind is not bool or not isinstance(value, kind):
        raise invalid(f"field {name!r} has the wrong type")
    return value


def _choice(body: dict[str, Any], name: str, options: tuple[str, ...]) -> str:
    value = _field(body, name, str)
    if value not in options:
        raise invalid(f"field {name!r} must be one of {', '.join(options)}")
    return value


def parse_command(body: Any) -> Command:
    """Turn an API command body into a command; IllegalCommand(Code.INVALID) if malformed."""
    if not isinstance(body, dict):
        raise invalid("a command is a JSON object")
    kind = body.get("type")
    if kind == "play":
        effect = _field(body, "effect", int)
        if effect not in (0, 1):
            raise invalid("field 'effect' must be 0 or 1")
        scope = _choice(body, "scope", ("one", "all"))
        target = _field(body, "target", int, nullable=True)
        return Play(_field(body, "card", str), effect, scope, target)
    if kind == "block":
        return Block(_field(body, "card", str))
    if kind == "pass":
        return Pass()
    if kind == "choose_neighbor":
        return ChooseNeighbor(_field(body, "neighbor", int))
    if kind == "bet":
        bet_kind = _choice(body, "kind", tuple(BET_VALUES))
        return Bet(bet_kind, _choice(body, "value", BET_VALUES[bet_kind]))
    if kind == "handoff":
        card = _field(body, "card", str, nullable=True)
        to = _field(body, "to", int, nullable=True)
        if (card is None) != (to is None):
            raise invalid("a handoff names both card and to, or neither (decline)")
        return Handoff(card, to)
    raise invalid(f"unknown command type {kind!r}; one of {', '.join(PLAYER_COMMANDS)}")
