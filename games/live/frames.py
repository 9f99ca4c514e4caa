"""The text of every websocket frame the service sends (API.md "Live stream"). orjson, not the
standard library: rendering each batch's frames for each viewer was 4 % of the web workers'
CPU in bench-load, most of it json.dumps. Integer keys become strings, as json.dumps made
them; the text is compact UTF-8 (any JSON parser reads it)."""

from __future__ import annotations

from typing import Any

import orjson


def frame_text(payload: dict[str, Any]) -> str:
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()
