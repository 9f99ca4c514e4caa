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


def bot_game(seed: bytes, seats: int = 4, variant: str = "standard", *, duel_coin: bool = False,
             rig: dict | None = None, ends: list[int] | None = None,
             offset: int = 0) -> list[Event]:  # fmt: skip
    """A whole game of bots (heuristic and random mixed, `offset` shifts who gets which);
    every 11th step times out (R21). `ends` gets the log's length after each command."""
    import random

    from games.engine import HeuristicBot, RandomBot, Timeout

    options = {"bots": list(range(seats)), "duel_coin": duel_coin}
    events = new_game(seats=seats, seed=seed, variant=variant, options=options, rig=rig)
    rnd = random.Random(seed)
    bots = [HeuristicBot() if (p + offset) % 2 else RandomBot(rnd) for p in range(seats)]
    state = fold(events)
    for step in range(20_000):
        if state.status != "active":
            return events
        if step % 11 == 10:
            command, actor = Timeout(), None
        else:
            actor = state.awaiting[0]
            command = bots[actor].choose(state, actor)
        new, state = execute(state, command, actor=actor, seed=seed)
        events += new
        if ends is not None:
            ends.append(len(events))
    raise AssertionError("the bot game did not end")


def gain(game: Game, target: int | None = None) -> list[Event]:
    """The Kostič plays a one-player GAIN_1 on `target` (himself by default); everyone passes."""
    from games.engine import Play, legal_commands

    k = game.state.kostic
    target = k if target is None else target
    deck = game.state.deck
    play = next(
        c
        for c in legal_commands(game.state, k)
        if isinstance(c, Play)
        and c.scope == "one"
        and c.target == target
        and deck.card(c.card).effects[c.effect].kind == "GAIN_1"
    )
    return game.do(play, k) + game.passes()


def away_game(seed: bytes = SEED) -> list[Event]:
    """A whole game of three players with everything of games/engine/away.py in it: a vacation
    paused and resumed, a takeover after a timeout (timeouts_to_bot 1) and the return, and a
    leave; bots play every seat they hold, the players move by the heuristic bot."""
    from games.engine import HeuristicBot, Timeout, bots_act
    from games.engine.away import Leave, Return, VacationEnd, VacationStart

    game = Game(3, options={"timeouts_to_bot": 1}, seed=seed)
    game.do(VacationStart(1, "2027-01-10T12:00:00.000000+00:00"))
    game.do(VacationEnd(1))
    kostic = game.state.kostic
    game.do(Timeout())
    game.do(Return(kostic))
    game.do(Leave(2))
    while game.state.status == "active":
        seat = game.state.awaiting[0]
        if game.state.plays_bot(seat):
            new, game.state = bots_act(game.state, game.seed)
            game.events += new
        else:
            game.do(HeuristicBot().choose(game.state, seat), seat)
    return game.events


def forked_game(seed: bytes = SEED, seats: int = 3, *, deal: str = "fresh") -> list[Event]:
    """A bot game forked (games/engine/fork.py) a third of the way in, played to its end by
    bots: the fork's whole log, `forked` first."""
    import random

    from games.engine import HeuristicBot, RandomBot
    from games.engine.fork import BOT, fork_game

    source = bot_game(seed, seats=seats)
    at = len(source) // 3
    events, state = fork_game(fold(source[:at]), seed=seed, players=[BOT] * seats, deal=deal,
                              origin={"game": 1, "at": at, "hash": "0" * 64})  # fmt: skip
    rnd = random.Random(seed)
    bots = [HeuristicBot() if p % 2 else RandomBot(rnd) for p in range(seats)]
    while state.status == "active":
        seat = state.awaiting[0]
        new, state = execute(state, bots[seat].choose(state, seat), actor=seat, seed=seed)
        events += new
    return events
