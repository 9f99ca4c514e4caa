"""A game told line by line, in English or Czech: setup, turns, and the final standings.

Pure: it reads events through the engine (`fold`, `evolve`, `redact_event`) and knows no Django.
Each event type has one formatter in `FORMATTERS` (`_tell_<event>`); the words live in
`phrases.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from games.engine import OMNISCIENT, Event, GameState, evolve, fold, redact_event
from games.engine import events as ev
from games.engine.names import seat_names
from games.engine.views import Viewer

from .phrases import PHRASES

ARROW = "→"
INDENT = "  "


@dataclass(frozen=True, slots=True)
class Step:
    """One event as a formatter sees it: its data as the viewer may see it, and the states
    just before and after it (for game_created, `before` is the state it makes)."""

    data: dict[str, Any]
    before: GameState
    after: GameState
    words: dict[str, str]
    names: list[str]

    def say(self, key: str, **fields: Any) -> str:
        return self.words[key].format(**fields)

    def word(self, key: str) -> str:
        return self.words[key]

    def name(self, seat: int) -> str:
        return self.names[seat]

    def names_of(self, seats: Iterable[int]) -> str:
        return ", ".join(self.names[seat] for seat in seats)

    def changes(self, pairs: Iterable[list[int]]) -> str:
        """`anna 5 → 4, bob 3 → 4`: lives before this event, then the new lives."""
        return ", ".join(f"{self.names[p]} {self.before.lives[p]} {ARROW} {x}" for p, x in pairs)

    def effect(self, card_id: str, index: int) -> tuple[str, str]:
        """The played effect's colour word and `KIND (text)`."""
        effect = self.before.deck.card(card_id).effects[index]
        return self.word(f"colour_{effect.colour}"), f"{effect.kind} ({self.word(effect.kind)})"


Formatter = Callable[[Step], list[str]]


def transcript(events: list[Event], *, viewer: Viewer = OMNISCIENT, lang: str = "en") -> list[str]:
    """The game so far as `viewer` may see it (R23), one short line per step.

    Secrets are judged on the state after all `events` (so an ended game shows everything).
    Raises ValueError for an unknown `lang` or an event log that does not start a game.
    """
    if lang not in PHRASES:
        raise ValueError(f"lang must be one of {', '.join(PHRASES)}")
    words, final = PHRASES[lang], fold(events)
    names = display_names(final, words)
    lines: list[str] = []
    state: GameState | None = None
    for event in events:
        after = evolve(state, event)
        data = redact_event(event, final, viewer)
        step = Step(data, state or after, after, words, names)
        indent = INDENT if after.turn and event.type not in FLUSH_LEFT else ""
        lines += [indent + line for line in FORMATTERS[event.type](step)]
        state = after
    return lines


def display_names(s: GameState, words: dict[str, str]) -> list[str]:
    """Seat names as every page shows them (games.engine.names: a bot is "bot#<seat>"), "seat
    N" for a seat nobody took; a name still shared (an imported record) gets its seat number,
    so the transcript can tell the players apart."""
    raw = [name or words["seat_name"].format(seat=seat)
           for seat, name in enumerate(seat_names(s.names, s.bots))]  # fmt: skip
    return [f"{name}#{seat}" if raw.count(name) > 1 else name for seat, name in enumerate(raw)]


# Setup


def _tell_created(step: Step) -> list[str]:
    d = step.data
    fields = {"seats": d["seats"], "deck": d["deck"]["name"]}
    fields["variant"] = step.word(f"variant_{d['variant']}")
    fields["duel"] = step.word("duel_coin" if d["options"].get("duel_coin") else "duel_die")
    fields["rigged"] = step.word("rigged") if d.get("rig") else ""
    return [step.say("created", **fields), step.say("commitment", hash=d["seed_commitment"])]


def _tell_forked(step: Step) -> list[str]:
    """A fork's first event (games/engine/fork.py): where it came from, then the position."""
    d, source = step.data, step.data["source"]
    lines = [step.say("forked", game=source.get("game"), at=source.get("at"),
                      hash=source.get("hash"), deal=step.word(f"deal_{d['deal']}")),
             step.say("commitment", hash=d["seed_commitment"])]  # fmt: skip
    lines.append(step.say("dealt", count=len(d["draw"])))
    for seat, hand in enumerate(d["hands"]):
        if hand and None not in hand:
            lines.append(step.say("hand", who=step.name(seat), cards=" ".join(hand)))
    lives = ", ".join(f"{step.name(p)} {x}" for p, x in enumerate(d["lives"]))
    return [*lines, step.say("start_lives", changes=lives)]


def _tell_seat_taken(step: Step) -> list[str]:
    bot = step.word("bot") if step.data.get("bot") else ""
    return [step.say("seat", seat=step.data["seat"], who=step.name(step.data["seat"]), bot=bot)]


def _tell_started(step: Step) -> list[str]:
    d, s = step.data, step.after
    if d.get("forked"):  # a fork's start: no deal (its `forked` event holds the position)
        return [step.word("fork_started")]
    lines = [step.say("dealt", count=len(d["draw"]))]
    for seat, hand in enumerate(d["hands"]):
        if hand and None not in hand:
            lines.append(step.say("hand", who=step.name(seat), cards=" ".join(hand)))
    if any(x != 6 for x in d["lives"]):  # a rigged start
        lives = ", ".join(f"{step.name(p)} {x}" for p, x in enumerate(d["lives"]))
        lines.append(step.say("start_lives", changes=lives))
    if s.partner(0) is not None:
        teams = {s.team(p): [q for q in range(s.n) if s.team(q) == s.team(p)] for p in range(s.n)}
        text = ", ".join(" & ".join(step.name(p) for p in team) for team in teams.values())
        lines.append(step.say("pairs", teams=text))
    return lines


# A turn


def _tell_turn_started(step: Step) -> list[str]:
    return [step.say("turn", turn=step.data["turn"], who=step.name(step.data["kostic"]))]


def _tell_turn_skipped(step: Step) -> list[str]:
    return [step.say(f"skip_{step.data['reason']}", who=step.name(step.data["seat"]))]


def _tell_played(step: Step) -> list[str]:
    d = step.data
    colour, effect = step.effect(d["card"], d["effect"])
    who, card = step.name(d["seat"]), d["card"]
    if d["scope"] == "all":
        return [step.say("play_all", who=who, card=card, colour=colour, effect=effect)]
    target = step.name(d["target"])
    return [step.say("play_one", who=who, card=card, colour=colour, effect=effect, target=target)]


def _tell_blocked(step: Step) -> list[str]:
    """A block its player's standing order gave says so (issue 10: the mark is public)."""
    key = "blocked_standing" if step.data.get("standing") else "blocked"
    return [step.say(key, who=step.name(step.data["seat"]), card=step.data["card"])]


def _tell_neighbor_chosen(step: Step) -> list[str]:
    d = step.data
    return [step.say("neighbor", who=step.name(d["seat"]), other=step.name(d["neighbor"]))]


def _tell_duel_started(step: Step) -> list[str]:
    p, k = step.data["seats"]
    return [step.say("duel", who=step.name(p), other=step.name(k))]


def _tell_bet(step: Step) -> list[str]:
    value = step.word(f"bet_{step.data['value']}")
    return [step.say("bet", who=step.name(step.data["seat"]), value=value)]


def _tell_rolled(step: Step) -> list[str]:
    d = step.data
    who = step.name(d["seat"])
    if d["purpose"] == "first":
        return [step.say("first_roll", who=who, value=d["value"])]
    return [step.say("roll", who=who, value=d["value"], result=_hit(step))]


def _tell_tossed(step: Step) -> list[str]:
    side = step.word(f"side_{step.data['side']}")
    return [step.say("toss", who=step.name(step.data["seat"]), side=side, result=_hit(step))]


def _hit(step: Step) -> str:
    return step.word("hit" if step.data["hit"] else "miss")


def _tell_lives_changed(step: Step) -> list[str]:
    changes = step.data["changes"]
    if not changes:
        return [step.word("no_change")]
    return [step.say("lives", changes=step.changes(changes))]


def _tell_eliminated(step: Step) -> list[str]:
    who, by = step.name(step.data["seat"]), step.data["by"]
    if by is None:  # R14: a self-elimination gives nobody the bonus
        return [step.say("eliminated", who=who)]
    return [step.say("eliminated_by", who=who, by=step.name(by))]


def _tell_countdown_started(step: Step) -> list[str]:
    return [step.say("countdown_started", value=step.data["value"])]


def _tell_effect_resolved(step: Step) -> list[str]:
    bonus = step.data["bonus"]  # R14; the end it may bring is told by game_ended (R29)
    return [step.say("bonus", changes=step.changes(bonus))] if bonus else []


def _tell_handed_off(step: Step) -> list[str]:
    d = step.data
    who = step.name(d["seat"])
    if d["to"] is None:
        lines = [step.say("handoff_declined", who=who)]
    elif d["card"] is None:  # R15: only giver and receiver see which card
        lines = [step.say("handoff_hidden", who=who, to=step.name(d["to"]))]
    else:
        lines = [step.say("handoff", who=who, card=d["card"], to=step.name(d["to"]))]
    if d.get("discarded"):  # the rest of the hand goes face up to the discard pile
        lines.append(step.say("discards", who=who, cards=" ".join(d["discarded"])))
    return lines


def _tell_reshuffled(step: Step) -> list[str]:
    return [step.say("reshuffled", count=len(step.data["draw"]))]


def _tell_drawn(step: Step) -> list[str]:
    who, card = step.name(step.data["seat"]), step.data["card"]
    return [step.say("draws", who=who, card=card) if card else step.say("draws_hidden", who=who)]


def _tell_turn_ended(step: Step) -> list[str]:
    value = step.data["countdown"]
    if step.data.get("game_over") or value is None or value == step.before.countdown:
        return []  # the countdown's start and end have lines of their own
    return [step.say("countdown", value=value)]


def _tell_timed_out(step: Step) -> list[str]:
    phase = step.word(f"phase_{step.data['phase']}")
    return [step.say("timed_out", phase=phase, who=step.names_of(step.data["seats"]))]


def _tell_away(key: str) -> Formatter:
    """Who left, was taken over by the bot, came back, went on vacation (games.engine.away)."""

    def tell(step: Step) -> list[str]:
        seat = step.data["seat"]
        until = (step.data.get("until") or "")[:16].replace("T", " ")  # to the minute, UTC
        k = step.after.options.get("timeouts_to_bot", 3)
        return [step.say(key, who=step.name(seat), until=until, k=k)]

    return tell


# The end


def _tell_ended(step: Step) -> list[str]:
    lines = [step.word(f"ended_{step.data['reason']}"), step.word("standings")]
    return [*lines, *_standings(step), step.say("seed", seed=step.data["seed"])]


def _standings(step: Step) -> list[str]:
    """Places by lives, then cards in hand (equal players share a place); winners marked."""
    s, winners = step.after, set(step.data["winners"])
    key = {p: (s.lives[p], len(s.hands[p])) for p in range(s.n)}
    order = sorted(key, key=lambda p: (-key[p][0], -key[p][1], p))
    return [
        _standing(step, p, 1 + sum(k > key[p] for k in key.values()), p in winners) for p in order
    ]


def _standing(step: Step, p: int, place: int, won: bool) -> str:
    s, team = step.after, step.after.team(p)
    fields = {"place": place, "who": step.name(p), "lives": s.lives[p], "cards": len(s.hands[p])}
    fields["team"] = "" if team is None else step.say("team", team=team + 1)
    fields["winner"] = step.word("winner") if won else ""
    return step.say("standing", **fields)


def _silent(step: Step) -> list[str]:
    """Block passes stay untold (the window's close is enough); a neighbour request is told
    by the choice that answers it."""
    return []


FORMATTERS: dict[str, Formatter] = {
    ev.GAME_CREATED: _tell_created,
    ev.FORKED: _tell_forked,
    ev.SEAT_TAKEN: _tell_seat_taken,
    ev.GAME_STARTED: _tell_started,
    ev.TURN_STARTED: _tell_turn_started,
    ev.TURN_SKIPPED: _tell_turn_skipped,
    ev.CARD_PLAYED: _tell_played,
    ev.BLOCK_PASSED: _silent,
    ev.PLAY_BLOCKED: _tell_blocked,
    ev.BLOCK_WINDOW_CLOSED: lambda step: [step.word("unblocked")],
    ev.NEIGHBOR_REQUESTED: _silent,
    ev.NEIGHBOR_CHOSEN: _tell_neighbor_chosen,
    ev.DUEL_STARTED: _tell_duel_started,
    ev.BET_PLACED: _tell_bet,
    ev.DIE_ROLLED: _tell_rolled,
    ev.COIN_TOSSED: _tell_tossed,
    ev.LIVES_CHANGED: _tell_lives_changed,
    ev.PLAYER_ELIMINATED: _tell_eliminated,
    ev.COUNTDOWN_STARTED: _tell_countdown_started,
    ev.EFFECT_RESOLVED: _tell_effect_resolved,
    ev.CARD_HANDED_OFF: _tell_handed_off,
    ev.DECK_RESHUFFLED: _tell_reshuffled,
    ev.CARD_DRAWN: _tell_drawn,
    ev.TURN_ENDED: _tell_turn_ended,
    ev.TIMED_OUT: _tell_timed_out,
    ev.GAME_ENDED: _tell_ended,
    **{t: _tell_away(t) for t in ev.AWAY_EVENTS},
}
FLUSH_LEFT = frozenset({ev.TURN_STARTED, ev.GAME_ENDED})
