"""Small helpers for engine tests: rigged games (API.md, rigged games) and moves."""

from __future__ import annotations

from games.engine import Command, Event, GameState, Join, execute, fold, new_game

SEED = bytes(range(32))


class Game:
    """A game under test: the state, the whole event log, and a way to act."""

    def __init__(
        self,
        seats: int = 4,
        *,
        variant: str = "standard",
        options: dict | None = None,
        seed: bytes = SEED,
        **rig,
    ) -> None:
        self.seed = seed
        self.events: list[Event] = new_game(
            seats=seats, seed=seed, variant=variant, options=options, rig=rig or None
        )
        self.state: GameState = fold(self.events)
        for seat in range(seats):
            if self.state.names[seat] is None:
                self.do(Join(f"p{seat}", seat))

    def do(self, command: Command, seat: int | None = None) -> list[Event]:
        """Send `command` as `seat`; returns the new events (the state moves on)."""
        new, self.state = execute(self.state, command, actor=seat, seed=self.seed)
        self.events += new
        return new

    def types(self, events: list[Event] | None = None) -> list[str]:
        return [e.type for e in (self.events if events is None else events)]

    def passes(self) -> list[Event]:
        """Everyone asked in the open block window passes."""
        from games.engine import Pass

        new: list[Event] = []
        while self.state.phase == "block":
            new += self.do(Pass(), self.state.awaiting[0])
        return new

    @property
    def lives(self) -> list[int]:
        return list(self.state.lives)


def rigged(seats: int = 4, **kw) -> Game:
    """A rigged game that starts at once; by default seat 0 is the first Kostič."""
    kw.setdefault("first", 0)
    return Game(seats, **kw)
