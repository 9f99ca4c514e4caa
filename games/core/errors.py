"""The service's errors: a machine code (API.md), a human message, and an HTTP status.

The codes and their statuses are one enumeration, `games.engine.Code`, shared with the engine.
"""

from __future__ import annotations

from games.engine import Code, IllegalCommand


class ApiError(Exception):
    """`code` is a Code or a string equal to one; any other string is a bug (ValueError)."""

    def __init__(self, code: Code | str, message: str, *, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message = Code.of(code), message
        self.retry_after = retry_after  # seconds: the answer's Retry-After (a cap, `too_many`)

    @property
    def status(self) -> int:
        return self.code.status

    def body(self) -> dict:
        return {"error": {"code": self.code.value, "message": self.message}}

    @classmethod
    def from_engine(cls, err: IllegalCommand) -> ApiError:
        return cls(err.code, err.message)


def stale_seq(expected: int | None, head: int) -> ApiError:
    return ApiError(Code.STALE_SEQ, f"expected_seq {expected} is not the last seq {head}; refetch")


def not_found(what: str = "game") -> ApiError:
    return ApiError(Code.NOT_FOUND, f"no such {what}")
