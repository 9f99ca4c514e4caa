"""A committed batch's frames, rendered once per process per audience (issue 19, issue 31): the
batch's state parsed once (`remember`), each viewer's frames (a seat, or None for every
spectator of the present) made once and shared by every socket that sends them, as text and
as the serialised bytes of games.live.wire."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, NamedTuple

from games.core.codec import view_state_from_json
from games.engine import Event, GameState, fold, redact_event, view_for
from games.engine.events import BLOCK_PASSED
from games.live import wire
from games.live.frames import frame_text
from games.table.publish import CommittedBatch

BATCHES_KEPT = 64  # parsed batches a process keeps for the sockets that have not sent them yet
FRAMES_KEPT = 1024  # rendered (batch, viewer, after) frame sets
BATCHES: OrderedDict[tuple[int, int], GameState] = OrderedDict()


class Frames(NamedTuple):
    """Text frames for one socket, and the same serialised for the wire (games.live.wire;
    None: not serialised, each goes through ASGI), both made once for every socket that
    sends them."""

    texts: tuple[str, ...]
    wire: bytes | None


FRAMES: OrderedDict[tuple[int, int, int | None, int], Frames] = OrderedDict()


def one(payload: dict[str, Any]) -> Frames:
    """A single frame of this socket's own (an ack, an error, a view)."""
    return Frames((frame_text(payload),), None)


def remember(message: CommittedBatch) -> GameState:
    """One parse per committed batch, shared by every socket of this process (the sockets'
    part of the state: games.core.codec.view_state_json)."""
    key = (message["game"], message["seq"])
    if key not in BATCHES:
        BATCHES[key] = view_state_from_json(message["state"])
        while len(BATCHES) > BATCHES_KEPT:
            BATCHES.popitem(last=False)
    return BATCHES[key]


def frames(message: CommittedBatch, state: GameState, viewer: int | None,
           after: int) -> Frames:  # fmt: skip
    """The frames of one batch for one viewer, rendered once: every spectator (and every
    socket of one seat) shares them. The caller passes the batch and its state: with hundreds
    of games a socket that awaited a gap's read may find its batch gone from BATCHES."""
    key = (message["game"], message["seq"], viewer, after)
    if key not in FRAMES:
        FRAMES[key] = render(message, state, viewer, after)
        while len(FRAMES) > FRAMES_KEPT:
            FRAMES.popitem(last=False)
    return FRAMES[key]


def render(message: CommittedBatch, state: GameState, viewer: int | None,
           after: int) -> Frames:  # fmt: skip
    game_id, seq = message["game"], message["seq"]
    texts = []
    judge = state
    if message.get("deal_open"):  # a duplicate deal another table still plays (publish)
        judge = state.copy()
        judge.status = "active"  # its events redacted as a running game's
    for e in message["events"]:
        if e["seq"] <= after:
            continue
        data = redact_event(Event(e["type"], e["data"], e["v"]), judge, viewer)
        event = {"seq": e["seq"], "type": e["type"], "at": e["at"], "data": data}
        texts.append(frame_text({"type": "event", "event": event}))
    view = {"id": game_id, "seq": seq, **view_for(seen_by(message, state, viewer), viewer),
            "deadline": message["deadline"], "delayed": False,
            "tournament": message.get("tournament"),
            "signed_head": message.get("signed_head")}  # fmt: skip
    if message.get("deal_open"):  # a duplicate deal another table still plays (publish)
        view["seed"], view["hands"] = None, None
    texts.append(frame_text({"type": "view", "view": view}))
    return Frames(tuple(texts), wire.serialised(texts))


def seen_by(message: CommittedBatch, state: GameState, viewer: int | None) -> GameState:
    """The batch's state as `viewer` knows it: with his own pass if it was sealed in the window
    left open at this seq (R19; games.core.sealed_passes.seen_by), so his view never offers a `pass`
    the service would refuse."""
    own = [data for data in message.get("sealed", ()) if data["seat"] == viewer]
    return fold([Event(BLOCK_PASSED, data) for data in own], state) if own else state
