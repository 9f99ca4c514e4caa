"""Who reads and who writes each chat channel of a game (API.md, Correspondence: Chat), and what a
message's text may be. Plain functions of the game state: the REST routes (games/chat/routes.py)
and every websocket (games/live/consumer.py) ask the same questions here.

- `table`: the players write (from the lobby on, and after the end); everyone reads, spectators
  and anonymous visitors included.
- `partners` (pair variants only): the two partners of one pair read and write; nobody else,
  ever — not the other pair, not spectators, not staff (staff read it in a dispute's case file).
- `spectators`: whoever is not a player writes (signed in) and reads; players neither read nor
  write it until the game ends (a spectator must not relay the game to a player), then read it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from games.core.errors import ApiError
from games.engine.errors import Code
from games.engine.state import ENDED, PAIRS, PAIRS_EXTREME, GameState

TABLE, PARTNERS, SPECTATORS = "table", "partners", "spectators"
CHANNELS = (TABLE, PARTNERS, SPECTATORS)
MAX_LENGTH = 500  # characters, after trimming
ALLOWED_CONTROLS = "\n\t"  # line breaks and tabs; every other control character is refused


@dataclass(frozen=True)
class Reader:
    """Who asks, as the chat sees him: his seat (None: not a player) and his pair."""

    seat: int | None
    team: int | None
    signed_in: bool


def chat_seat(state: GameState, user) -> int | None:
    """The user's seat, whether he or the bot plays it now: a player who left his seat to the
    bot is still a player here (he must not read the spectators' chat while his pair plays).
    A built-in bot's seat is no user's, whatever his name (issue 32)."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat, name in enumerate(state.names)
                 if name == user.username and not state.bots[seat]), None)  # fmt: skip


def reader_in(state: GameState, user) -> Reader:
    seat = chat_seat(state, user)
    team = state.team(seat) if seat is not None else None
    return Reader(seat, team, bool(user is not None and user.is_authenticated))


def channels_of(state: GameState) -> tuple[str, ...]:
    """The channels this game has: `partners` only in the pair variants."""
    if state.variant in (PAIRS, PAIRS_EXTREME):
        return CHANNELS
    return (TABLE, SPECTATORS)


def check_channel(state: GameState, channel: Any) -> str:
    """`channel` if this game has it; ApiError invalid otherwise."""
    if channel not in channels_of(state):
        names = ", ".join(channels_of(state))
        raise ApiError(Code.INVALID, f"channel is one of this game's channels: {names}")
    return channel


def may_read(state: GameState, reader: Reader, channel: str) -> bool:
    if channel == TABLE:
        return True
    if channel == PARTNERS:
        return reader.team is not None
    return reader.seat is None or state.status == ENDED  # spectators


def may_write(state: GameState, reader: Reader, channel: str) -> bool:
    if not reader.signed_in:
        return False
    if channel == SPECTATORS:
        return reader.seat is None
    return may_read(state, reader, channel) and reader.seat is not None


def audience(state: GameState, channel: str, team: int | None) -> dict[str, list[str]]:
    """Whom a message of `channel` (of pair `team`) may reach, by username, as the websocket
    broadcast carries it: `{"only": names}` or `{"except": names}` (anonymous sockets have no
    name: they are among "except", never among "only")."""
    humans = [(s, n) for s, n in enumerate(state.names) if n is not None and not state.bots[s]]
    players = [n for _, n in humans]
    if channel == PARTNERS:  # a bot partner is nobody's socket
        return {"only": [n for s, n in humans if state.team(s) == team]}
    if channel == SPECTATORS and state.status != ENDED:
        return {"except": players}
    return {"except": []}


def admits(audience_: dict[str, list[str]], username: str | None) -> bool:
    """Whether a socket of `username` (None: anonymous) may receive a message for `audience_`."""
    if "only" in audience_:
        return username is not None and username in audience_["only"]
    return username not in audience_["except"]


def clean_text(text: Any) -> str:
    """The text to store: trimmed, line breaks as \\n, 1..MAX_LENGTH characters, no control
    character but line breaks and tabs (NUL included: PostgreSQL stores none), no lone
    surrogate (UTF-8 cannot hold one). ApiError invalid otherwise."""
    if not isinstance(text, str):
        raise ApiError(Code.INVALID, "text is a string")
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if not 1 <= len(text) <= MAX_LENGTH:
        raise ApiError(Code.INVALID, f"text is 1 to {MAX_LENGTH} characters (after trimming)")
    for char in text:
        kind = unicodedata.category(char)
        if (kind == "Cc" and char not in ALLOWED_CONTROLS) or kind == "Cs":
            raise ApiError(Code.INVALID, f"text may not contain the character U+{ord(char):04X}")
    return text
