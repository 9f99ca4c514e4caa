"""What the effect tests share (test_effects.py, test_effects_conditions.py): a game where the
Kostič holds the card under test, the CUSTOM deck for colours the standard deck never shows
(R33), and readers of the events."""

from __future__ import annotations

from games.engine import Bet, ChooseNeighbor, Deck, Event, Join, Play, fold, new_game
from games.engine.cards import COLOURS, EFFECTS
from tests.engine.helpers import SEED, Game, rigged

FILLERS = [f"F{i:02d}" for i in range(1, 13)]
SPARE = [f"C{i:02d}" for i in range(26, 41)]  # standard cards no test here needs in a hand
CUSTOM = Deck.from_rows(
    "effects",
    [[f"{c}:{k}", c, k, c, k] for c in COLOURS for k in EFFECTS]
    + [[f, "green", "GAIN_1", "green", "LOSE_1"] for f in FILLERS],
)


class CustomGame(Game):
    """A rigged game on the CUSTOM deck (card "blue:ODD_UP" has blue ODD_UP on both sides)."""

    def __init__(self, seats: int, **rig) -> None:
        self.seed = SEED
        self.events = new_game(seats=seats, seed=SEED, deck=CUSTOM, rig=rig)
        self.state = fold(self.events)
        for seat in range(seats):
            self.do(Join(f"p{seat}", seat))


def start(card: str, lives: list[int], kostic: int = 0, dice: list[int] | None = None) -> Game:
    """A game where `kostic` is on turn holding `card` and a spare; the others hold two spares."""
    n = len(lives)
    spare = [c for c in (FILLERS if card in CUSTOM else SPARE) if c != card]
    hands = [spare[2 * s : 2 * s + 2] for s in range(n)]
    hands[kostic] = [card, spare[-1]]
    rig = {"hands": hands, "lives": lives, "first": kostic, "dice": dice or []}
    if card in CUSTOM:
        return CustomGame(n, **rig)
    return rigged(n, **rig)


def play(g: Game, card: str, effect: int, scope: str, target: int | None = None) -> list[Event]:
    """The Kostič plays; everyone passes the block window; the events up to the next decision."""
    return g.do(Play(card, effect, scope, target), g.state.kostic) + g.passes()


def choose(g: Game, seat: int, neighbor: int) -> list[Event]:
    """`seat` is the one awaited for a neighbour choice (R8) and picks `neighbor`."""
    assert (g.state.phase, g.state.awaiting) == ("choose_neighbor", [seat])
    return g.do(ChooseNeighbor(neighbor), seat)


def bet(g: Game, seat: int, kind: str, value: str) -> list[Event]:
    """`seat` is the one awaited for a duel bet (section 3.1) and bets."""
    assert (g.state.phase, g.state.awaiting) == ("bet", [seat])
    return g.do(Bet(kind, value), seat)


def moves(events: list[Event], lives: list[int]) -> list[tuple[int, int, int]]:
    """(seat, before, after) for every real life change the events carry, in order."""
    lives, out = list(lives), []
    for e in events:
        for seat, new in e.data["changes"] if e.type == "lives_changed" else ():
            if new != lives[seat]:
                out.append((seat, lives[seat], new))
                lives[seat] = new
    return out


def finished(g: Game, card: str, events: list[Event]) -> bool:
    """The effect finished with nobody out: the card is discarded (R25), the next turn began."""
    s = g.state
    return (
        "effect_resolved" in g.types(events)
        and "player_eliminated" not in g.types(events)
        and s.discard[-1] == card
        and card not in s.hands[0]
        and s.pending is None
        and s.phase == "play"
    )


def custom(colour: str, kind: str) -> str:
    return f"{colour}:{kind}"
