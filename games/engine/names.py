"""How a seat is named wherever a game is shown: the table, the replay viewer, the lobby, "my
games", the profile and the transcript. A person by his username; a bot as "bot#<seat>" (every
bot's username is "bot", setup.BOT_NAME: the seat tells the bots apart, and a bot keeps its
name however many others sit down); a free seat has no name (each page words it in its own
language). frontend/static/frontend/names.js mirrors this rule for the pages' scripts."""

from __future__ import annotations

from collections.abc import Sequence


def seat_name(name: str | None, *, bot: bool, seat: int) -> str | None:
    """ "eva" → "eva"; a bot at seat 2 → "bot#2"; a free seat → None."""
    if name is None:
        return None
    return f"{name}#{seat}" if bot else name


def seat_names(names: Sequence[str | None], bots: Sequence[bool]) -> list[str | None]:
    """seat_name() of every seat, e.g. (["eva", "bot", None], [False, True, False]) →
    ["eva", "bot#1", None]."""
    return [seat_name(name, bot=bool(bot), seat=seat)
            for seat, (name, bot) in enumerate(zip(names, bots, strict=False))]  # fmt: skip
