"""games.live.frames: the text of every websocket frame. orjson refuses what json.dumps accepted
unless told: integer keys (a seat's number) must become strings, as they did."""

from __future__ import annotations

import json

from games.live.frames import frame_text


def test_a_frame_reads_back_as_json_dumps_wrote_it():
    payload = {"type": "view", "view": {"seq": 3, "scores": {0: 2, 1: 5}, "name": "Kostič",
                                        "hand": ("C01", "C02"), "deadline": None}}  # fmt: skip
    assert json.loads(frame_text(payload)) == json.loads(json.dumps(payload))
