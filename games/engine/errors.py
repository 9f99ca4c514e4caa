"""Typed errors with stable machine codes (R35 fixes the order in which they are checked)."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Every error code the service answers with (API.md), each with its HTTP status.

    The engine raises the first four; the API adds the rest. A member is a `str` equal to its
    code, so it goes into JSON and compares with plain strings unchanged.
    """

    status: int

    def __new__(cls, code: str, status: int) -> Code:
        member = str.__new__(cls, code)
        member._value_ = code
        member.status = status
        return member

    @classmethod
    def of(cls, code: str) -> Code:
        """The member equal to `code` (a Code is a str too); ValueError if there is none."""
        return cls(code)  # type: ignore[call-arg]  # a lookup by value; mypy sees __new__

    # The engine's refusals.
    GAME_OVER = "game_over", 409
    NOT_YOUR_TURN = "not_your_turn", 409
    ILLEGAL_MOVE = "illegal_move", 422
    INVALID = "invalid", 400
    # The API's.
    NOT_AUTHENTICATED = "not_authenticated", 401
    FORBIDDEN = "forbidden", 403
    NOT_FOUND = "not_found", 404
    METHOD_NOT_ALLOWED = "method_not_allowed", 405
    NOT_ACCEPTABLE = "not_acceptable", 406
    STALE_SEQ = "stale_seq", 409
    GAME_FULL = "game_full", 409
    SEAT_TAKEN = "seat_taken", 409
    ALREADY_SEATED = "already_seated", 409
    USERNAME_TAKEN = "username_taken", 409
    GAME_NOT_OVER = "game_not_over", 409  # forks, odds: only of a finished game (issue 30)
    DUPLICATE = "duplicate", 409  # a second dispute of the same moment by the same player
    GAME_TAMPERED = "game_tampered", 409  # its head is no head the service signed: stopped
    TOO_LARGE = "too_large", 413
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", 415
    IDEMPOTENCY_MISMATCH = "idempotency_mismatch", 422
    THROTTLED = "throttled", 429
    TOO_MANY = "too_many", 429  # a per-player cap (API.md, Conventions), with Retry-After
    INTERNAL = "internal", 500  # the server failed; never for bad input
    UNAVAILABLE = "unavailable", 503  # too busy now (no database connection free): retry later


class IllegalCommand(ValueError):
    """A command the state does not allow. `code` is stable; the API maps it without parsing."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def game_over() -> IllegalCommand:
    return IllegalCommand(Code.GAME_OVER, "the game is over")


def not_your_turn(message: str = "you may not act now") -> IllegalCommand:
    return IllegalCommand(Code.NOT_YOUR_TURN, message)


def illegal(message: str) -> IllegalCommand:
    return IllegalCommand(Code.ILLEGAL_MOVE, message)


def invalid(message: str) -> IllegalCommand:
    return IllegalCommand(Code.INVALID, message)
