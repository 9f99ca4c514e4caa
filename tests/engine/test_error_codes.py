"""One enumeration of error codes (issue 7): API.md's codes are its members, each with a status."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games.core.errors import ApiError, not_found, stale_seq
from games.engine import Code, GameState, IllegalCommand, Join, Play, execute, fold, new_game

# API.md, Conventions: "Codes include ..." (checked against the file itself when it is there).
API_MD_CODES = [
    "not_your_turn", "illegal_move", "stale_seq", "not_found", "forbidden", "invalid",
    "game_full", "game_over", "idempotency_mismatch",
]  # fmt: skip
SEED = b"s" * 32
API_MD = Path(__file__).resolve().parents[3] / "shared" / "API.md"


def codes_listed_in_api_md() -> list[str]:
    if not API_MD.is_file():
        return API_MD_CODES
    text = " ".join(API_MD.read_text(encoding="utf-8").split())
    listed = re.search(r"Codes include (.*?)\.", text)
    assert listed, "API.md no longer says 'Codes include ...'"
    return re.findall(r"`([a-z_]+)`", listed.group(1))


@pytest.fixture
def game_of_two() -> GameState:
    return fold(new_game(seats=2, seed=SEED, options={"bots": [0, 1]}))


def test_every_code_api_md_lists_is_a_member_with_its_status() -> None:
    """A 4xx for bad input; `unavailable` is the server's 503 (the database or Redis away)."""
    listed = codes_listed_in_api_md()
    assert set(API_MD_CODES) <= set(listed)
    for code in listed:
        status = Code.of(code).status
        assert status == 503 if code == "unavailable" else 400 <= status < 500, code


def test_only_the_servers_own_failures_are_not_client_errors() -> None:
    """500 `internal` (a bug) and 503 `unavailable` (overload, retry later: issue 9)."""
    assert [c for c in Code if not 400 <= c.status < 500] == [Code.INTERNAL, Code.UNAVAILABLE]
    assert Code.INTERNAL.status == 500 and Code.UNAVAILABLE.status == 503


def test_a_code_is_the_plain_string_clients_see() -> None:
    assert Code.NOT_YOUR_TURN == "not_your_turn" and f"{Code.GAME_OVER}" == "game_over"
    assert Code.of("illegal_move") is Code("illegal_move") is Code.ILLEGAL_MOVE
    with pytest.raises(ValueError):
        Code.of("no_such_code")


def test_the_engine_raises_members_of_the_enumeration(game_of_two: GameState) -> None:
    with pytest.raises(IllegalCommand) as refused:
        execute(game_of_two, Play("C01", 0, "all", None), actor=None, seed=SEED)
    assert refused.value.code is Code.NOT_YOUR_TURN
    with pytest.raises(IllegalCommand) as full:
        execute(game_of_two, Join("late"), seed=SEED)
    assert full.value.code is Code.GAME_FULL


def test_api_statuses_come_from_the_enumeration() -> None:
    assert {c: ApiError(c, "").status for c in Code} == {c: c.status for c in Code}
    assert (Code.STALE_SEQ.status, Code.ILLEGAL_MOVE.status) == (409, 422)
    assert (stale_seq(3, 4).status, not_found().status) == (409, 404)


def test_api_error_takes_a_code_or_its_string_and_refuses_an_unknown_one() -> None:
    by_string, by_member = ApiError("game_full", "full"), ApiError(Code.GAME_FULL, "full")
    assert by_string.code is by_member.code is Code.GAME_FULL
    assert by_string.body() == {"error": {"code": "game_full", "message": "full"}}
    assert type(by_string.body()["error"]["code"]) is str
    with pytest.raises(ValueError):
        ApiError("no_such_code", "a typo fails loudly")
