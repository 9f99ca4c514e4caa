"""What a client may send on `/ws/games/{id}/` (API.md, Live stream): a `resync`, a `command`,
or `visibility` (whether the page's tab is visible: docs/NOTIFICATIONS.md, "Quiet at the table").
Reading a frame never raises anything but FrameError, whose message is for the client: the
socket answers `{"type": "error", ...}` and stays open."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from games.engine.errors import Code

MAX_FRAME = 64 * 1024  # characters; a resync is a few dozen (HTTP bodies: 64 KiB too)
HELP = ('send {"type": "resync", "after": <seq>}, '
        '{"type": "command", "id": <string>, "command": {"expected_seq": <seq>, ...}} or '
        '{"type": "visibility", "visible": true|false}')  # fmt: skip


class FrameError(ValueError):
    """A frame the socket cannot act on; `id` is the command's, when it had a readable one."""

    def __init__(self, message: str, *, id: str | None = None) -> None:
        super().__init__(message)
        self.id = id

    def payload(self) -> dict[str, Any]:
        error = {"code": Code.INVALID, "message": str(self)}
        return {"type": "error", "error": error} | ({"id": self.id} if self.id else {})


@dataclass(frozen=True)
class Resync:
    after: int


@dataclass(frozen=True)
class Visibility:
    visible: bool  # the page's tab is visible (document.visibilityState)


@dataclass(frozen=True)
class SocketCommand:
    id: str
    body: dict[str, Any]  # the REST command body, expected_seq included


def read_frame(text: str | None) -> Resync | SocketCommand | Visibility:
    """The request in a text frame; FrameError for binary, too long, not JSON, nested past the
    parser's stack, or another shape."""
    if text is None:
        raise FrameError(f"text frames only: {HELP}")
    if len(text) > MAX_FRAME:
        raise FrameError(f"frames are at most {MAX_FRAME} characters: {HELP}")
    try:
        message = json.loads(text)
    except RecursionError:
        raise FrameError(f"nested too deeply: {HELP}") from None
    except ValueError:
        raise FrameError(f"unreadable JSON: {HELP}") from None
    if not isinstance(message, dict):
        raise FrameError(HELP)
    if message.get("type") == "resync":
        return Resync(_after(message.get("after")))
    if message.get("type") == "command":
        return _command(message)
    if message.get("type") == "visibility":
        if not isinstance(message.get("visible"), bool):
            raise FrameError(f'"visible" is true or false: {HELP}')
        return Visibility(message["visible"])
    raise FrameError(HELP)


def _after(after: Any) -> int:
    if isinstance(after, bool) or not isinstance(after, int):
        raise FrameError(HELP)
    if after < 0:
        raise FrameError(f"after is a seq, 0 or more: {HELP}")
    return after


def _command(message: dict[str, Any]) -> SocketCommand:
    id_ = message.get("id")
    if not isinstance(id_, str):  # its bounds are the Idempotency-Key's (games.table.commands)
        raise FrameError('a command\'s "id" is a string, its Idempotency-Key')
    body = message.get("command")
    if not isinstance(body, dict):
        raise FrameError('"command" is the command body, a JSON object', id=id_)
    return SocketCommand(id_, body)
