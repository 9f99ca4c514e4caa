"""Typed errors with stable machine codes (R35 fixes the order in which they are checked)."""


class IllegalCommand(ValueError):
    """A command the state does not allow. `code` is stable; the API maps it without parsing."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def game_over() -> IllegalCommand:
    return IllegalCommand("game_over", "the game is over")


def not_your_turn(message: str = "you may not act now") -> IllegalCommand:
    return IllegalCommand("not_your_turn", message)


def illegal(message: str) -> IllegalCommand:
    return IllegalCommand("illegal_move", message)


def invalid(message: str) -> IllegalCommand:
    return IllegalCommand("invalid", message)
