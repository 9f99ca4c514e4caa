"""The service's errors: a machine code (API.md), a human message, and an HTTP status."""

from __future__ import annotations

from games.engine import IllegalCommand

STATUS_BY_CODE = {
    "invalid": 400, "not_authenticated": 401, "forbidden": 403, "not_found": 404,
    "method_not_allowed": 405, "not_acceptable": 406, "not_your_turn": 409, "stale_seq": 409,
    "game_over": 409, "game_full": 409, "seat_taken": 409, "already_seated": 409,
    "username_taken": 409,
    "too_large": 413, "unsupported_media_type": 415, "illegal_move": 422,
    "idempotency_mismatch": 422, "throttled": 429,
}  # fmt: skip


class ApiError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 400)

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message}}

    @classmethod
    def from_engine(cls, err: IllegalCommand) -> ApiError:
        return cls(err.code, err.message)


def stale_seq(expected: int | None, head: int) -> ApiError:
    return ApiError("stale_seq", f"expected_seq {expected} is not the last seq {head}; refetch")


def not_found(what: str = "game") -> ApiError:
    return ApiError("not_found", f"no such {what}")
