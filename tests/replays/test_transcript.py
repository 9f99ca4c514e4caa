"""The transcript tells a game line by line, in English and Czech, as a viewer may see it (R23)."""

from __future__ import annotations

import pytest

from games.engine import (
    OMNISCIENT,
    Bet,
    Block,
    ChooseNeighbor,
    Deck,
    Handoff,
    Join,
    Play,
    Timeout,
    fold,
    new_game,
)
from games.engine.events import EVENT_TYPES
from replays.phrases import PHRASES
from replays.transcript import FORMATTERS, display_names, transcript
from tests.engine import helpers
from tests.engine.helpers import SEED, Game

NAMES = ["anna", "bob", "carl", "dana"]
HANDS = [["C25", "C10", "C01"], ["C33", "C40"], ["C26", "C34", "C05"], ["C27", "C28"]]
LOSE_ONE_ON_BOB = Play("C25", 0, "one", 1)  # green LOSE_1
SMALL = [[f"A{i}", "green", "LOSE_1", "blue", "GAIN_1"] for i in range(1, 5)]


def table(
    seats: int = 4,
    variant: str = "standard",
    options: dict | None = None,
    deck: list[list[str]] | None = None,
    **rig,
) -> Game:
    """A rigged game of named players; anna (seat 0) is the first Kostič. `deck` gives rows
    of a custom deck (no rigged draw pile then: its unnamed cards lie in catalog order)."""
    rig = {"first": 0, "hands": HANDS[:seats], **rig}
    if deck is None:
        rig.setdefault("deck", ["C39", "C38"])
    g = Game.__new__(Game)
    g.seed = SEED
    custom = Deck.from_rows("t", deck) if deck else None
    g.events = new_game(
        seats=seats, seed=SEED, variant=variant, options=options, deck=custom, rig=rig
    )
    g.state = fold(g.events)
    for seat in range(seats):
        g.do(Join(NAMES[seat], seat))
    return g


def told(g: Game, viewer=OMNISCIENT, lang: str = "en") -> list[str]:
    return transcript(g.events, viewer=viewer, lang=lang)


def test_setup_names_the_variant_the_players_and_the_first_kostic() -> None:
    lines = told(table())
    assert lines[0] == "Sejmi je — standard, 4 seats, deck standard, duels with a die (rigged)"
    assert lines[2:6] == ["Seat 0: anna", "Seat 1: bob", "Seat 2: carl", "Seat 3: dana"]
    assert "anna holds C25 C10 C01" in lines
    assert lines[-1] == "Turn 1 — Kostič: anna"


def test_first_kostic_rolls_are_told() -> None:
    events = new_game(seats=3, seed=SEED, options={"bots": [0, 1, 2]})
    rolls = [line for line in transcript(events) if "for first Kostič" in line]
    assert rolls[0].startswith("bot#0 rolls ") and len(rolls) >= 3


def test_a_play_names_card_effect_and_target_then_the_window_closes() -> None:
    g = table()
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    lines = told(g)
    start = lines.index("  anna plays C25: green LOSE_1 (lose 1 life) on bob")
    assert lines[start + 1 : start + 4] == [
        "  Nobody blocked",
        "  Lives: bob 6 → 5",
        "  anna draws C39",
    ]


def test_an_all_players_play_says_everyone() -> None:
    g = table()
    g.do(Play("C10", 1, "all", None), 0)  # red GAIN_1
    assert "  anna plays C10: red GAIN_1 (gain 1 life) on everyone" in told(g)


def test_a_block_names_the_blocker_and_his_card_and_no_pass_is_listed() -> None:
    g = table()
    g.do(LOSE_ONE_ON_BOB, 0)
    g.do(Block("C26"), 2)
    lines = told(g, viewer=None)
    assert "  carl blocks with C26; the effect is cancelled" in lines
    assert "  Nobody blocked" not in lines


def test_elimination_bonus_countdown_and_handoff_are_told_in_order() -> None:
    g = table(lives=[5, 1, 6, 6])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    g.do(Handoff("C33", 2), 1)
    lines = told(g)
    start = lines.index("  Lives: bob 1 → 0")
    assert lines[start : start + 7] == [
        "  Lives: bob 1 → 0",
        "  bob is eliminated by anna",
        "  Countdown starts at 6",
        "  Eliminator bonus: anna 5 → 6",
        "  bob hands C33 to carl",
        "  bob discards C40",
        "  anna draws C39",
    ]


@pytest.mark.parametrize(
    ("viewer", "line"),
    [
        (OMNISCIENT, "  bob hands C33 to carl"),
        (1, "  bob hands C33 to carl"),  # the giver
        (2, "  bob hands C33 to carl"),  # the receiver
        (3, "  bob hands a card to carl"),
        (None, "  bob hands a card to carl"),  # a spectator
    ],
)
def test_r15_only_giver_and_receiver_see_the_handed_card(viewer, line: str) -> None:
    g = table(lives=[5, 1, 6, 6])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    g.do(Handoff("C33", 2), 1)
    assert line in told(g, viewer=viewer)


def test_r23_after_the_end_a_spectator_sees_the_handed_card() -> None:
    g = table(lives=[5, 1, 6, 6])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    g.do(Handoff("C33", 2), 1)
    while g.state.status == "active":
        g.do(Timeout())
    assert "  bob hands C33 to carl" in told(g, viewer=None)


def test_a_declined_handoff_is_told() -> None:
    g = table(lives=[5, 1, 6, 6])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    g.do(Handoff(None, None), 1)
    lines = told(g, viewer=None)
    start = lines.index("  bob declines to hand on a card")
    assert lines[start + 1] == "  bob discards C33 C40"


@pytest.mark.parametrize(
    ("variant", "viewer", "line"),
    [
        ("standard", 0, "  anna draws C39"),
        ("standard", 1, "  anna draws a card"),
        ("standard", None, "  anna draws a card"),
        ("pairs_extreme", 1, "  anna draws C39"),  # R23: partners see each other's hands
        ("pairs", 2, "  anna draws a card"),
    ],
)
def test_a_drawn_card_is_shown_only_to_who_may_see_it(variant: str, viewer, line: str) -> None:
    g = table(variant=variant)
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    assert line in told(g, viewer=viewer)


def test_a_neighbour_choice_is_told() -> None:
    g = table()
    g.do(Play("C10", 0, "one", 2), 0)  # green GIVE_NEIGHBOR on carl
    g.passes()
    g.do(ChooseNeighbor(3), 2)
    lines = told(g)
    start = lines.index("  carl picks neighbour dana")
    assert lines[start + 1] == "  Lives: carl 6 → 5, dana 6 → 6"


def test_a_duel_tells_bets_rolls_and_the_loss() -> None:
    g = table(dice=[3])
    g.do(Play("C01", 0, "one", 1), 0)  # green DUEL with bob
    g.passes()
    g.do(Bet("parity", "even"), 1)
    lines = told(g)
    start = lines.index("  Duel: bob against anna; bob bets first")
    assert lines[start + 1 : start + 4] == [
        "  bob bets on even",
        "  bob rolls 3: miss",
        "  Lives: bob 6 → 4",
    ]


def test_r13_a_coin_duel_tells_the_toss() -> None:
    g = table(options={"duel_coin": True}, dice=[1, 2])
    g.do(Play("C01", 0, "one", 1), 0)
    g.passes()
    g.do(Bet("coin", "heads"), 1)  # 1 is odd: heads, a hit; anna bets next
    g.do(Bet("coin", "heads"), 0)  # 2 is even: tails, a miss
    lines = told(g)
    assert "  bob tosses heads: hit" in lines
    assert "  anna tosses tails: miss" in lines
    assert "  Lives: anna 6 → 4" in lines


def test_r5_skips_are_told_with_their_reason() -> None:
    g = table(seats=3, hands=[[], ["C25"], ["C26"]])
    assert "  anna has no card and only draws (R5)" in told(g)
    assert "  anna nemá kartu, jen si lízne (R5)" in told(g, lang="cs")

    rows = [["N1", "green", "DOUBLE_LOW", "green", "HALVE_EVEN"], SMALL[0]]
    g = table(seats=2, deck=rows, lives=[5, 5], hands=[["N1"], []])
    assert "  anna has no legal play and only draws (R5)" in told(g)


def test_r4_a_reshuffle_tells_the_new_pile_size_but_no_card() -> None:
    g = table(seats=2, deck=SMALL, hands=[["A1", "A2"], ["A3", "A4"]])
    g.do(Play("A1", 0, "one", 1), 0)
    g.passes()
    lines = told(g, viewer=None)
    start = lines.index("  Discard pile reshuffled; draw pile: 1")
    assert lines[start + 1] == "  anna draws a card"


def test_r21_a_timeout_names_the_phase_and_the_players() -> None:
    g = table()
    g.do(LOSE_ONE_ON_BOB, 0)
    g.do(Timeout())
    assert "  Time ran out (the block window) for bob, carl, dana; the service acts (R21)" in told(
        g
    )


def test_final_standings_mark_the_winners_and_reveal_the_seed() -> None:
    g = table(seats=2, lives=[5, 1])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    assert told(g)[-5:] == [
        "Game over: fewer than two players remain",
        "Final standings:",
        "  1. anna — lives 6, cards 2 ★ winner",
        "  2. bob — lives 0, cards 0",
        f"Seed revealed: {SEED.hex()}",
    ]


def test_czech_transcript_uses_the_sheet_words() -> None:
    g = table(seats=2, lives=[5, 1])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    lines = told(g, lang="cs")
    for line in [
        "Tah 1 — Kostič: anna",
        "  anna hraje C25: zelený LOSE_1 (Uber si 1 život) na hráče bob",
        "  Nikdo neblokoval",
        "  Životy: bob 1 → 0",
        "  bob vypadává ze hry, vyřadil ho anna",
        "Konec hry: ve hře zbývá méně než dva hráči",
        "  1. anna — životy 6, karty 2 ★ vítěz",
    ]:
        assert line in lines


def test_pairs_standings_name_the_pair() -> None:
    g = table(variant="pairs", lives=[5, 1, 6, 6])
    g.do(LOSE_ONE_ON_BOB, 0)
    g.passes()
    g.do(Handoff(None, None), 1)
    while g.state.status == "active":
        g.do(Timeout())
    standings = [line for line in told(g) if line.startswith("  ") and " — " in line]
    assert len(standings) == 4 and all(", pair " in line for line in standings)
    assert "Pairs: anna & carl, bob & dana" in told(g)


def test_names_fall_back_to_the_seat_and_shared_names_get_the_seat() -> None:
    events = new_game(seats=3, seed=SEED, options={"bots": [1, 2]})
    assert display_names(fold(events), PHRASES["en"]) == ["seat 0", "bot#1", "bot#2"]
    assert display_names(fold(events), PHRASES["cs"])[0] == "místo 0"


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError):
        transcript(table().events, lang="de")


def test_every_event_type_has_one_formatter() -> None:
    assert set(FORMATTERS) == set(EVENT_TYPES)


def test_every_phrase_exists_in_both_languages() -> None:
    assert set(PHRASES["en"]) == set(PHRASES["cs"])


# Full bot games: every event type, both languages, every kind of viewer.

CONFIGS = [(n, "standard") for n in range(2, 7)] + [(4, "pairs"), (4, "pairs_extreme")]
GAMES = [(*CONFIGS[i % len(CONFIGS)], i % 2 == 1, i) for i in range(30)]
EMPTY_FIRST_HAND = {"first": 0, "hands": [[], ["C25"], ["C26", "C27"]]}  # R5 turn skips


def bot_game(seats: int, variant: str, duel_coin: bool, index: int, rig=None) -> list:
    """Bots in every seat (heuristic and random mixed); every 11th step is a timeout (R21)."""
    return helpers.bot_game(bytes([index]) * 32, seats, variant, duel_coin=duel_coin, rig=rig,
                            offset=index)  # fmt: skip


@pytest.fixture(scope="module")
def bot_games() -> list[list]:
    return [bot_game(*config) for config in GAMES] + [
        bot_game(3, "standard", False, 99, EMPTY_FIRST_HAND),
        helpers.away_game(),  # who left, was taken over, came back, went on vacation
        helpers.forked_game(),  # a fork played to its end (issue 30)
    ]


def test_bot_games_cover_every_event_type(bot_games) -> None:
    seen = {e.type for events in bot_games for e in events}
    assert seen == set(EVENT_TYPES)


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_every_bot_game_is_told_to_every_viewer(bot_games, lang: str) -> None:
    for events in bot_games:
        n = fold(events[:1]).n
        for viewer in (OMNISCIENT, None, 0, n - 1):
            lines = transcript(events, viewer=viewer, lang=lang)
            assert all(line.strip() and len(line) < 200 for line in lines)
            assert any(PHRASES[lang]["winner"] in line for line in lines)
        for viewer in (None, 1):  # a running game, seen by a spectator and by a seat
            running = transcript(events[: len(events) // 2], viewer=viewer, lang=lang)
            assert not any(PHRASES[lang]["seed"].split(":")[0] in line for line in running)
