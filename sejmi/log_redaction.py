"""Keep secrets out of logs: a logging filter that blanks the value of every `token=` and
`ticket=` query parameter in a record (uvicorn's access lines carry the full path, and its
websocket lines "WebSocket /ws/games/1/?token=..." go to uvicorn.error).

Installed on every handler of settings.LOGGING, so it holds for uvicorn wherever it serves
sejmi.asgi (make run, docker-compose, benchmarks), whatever its command line says.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

SECRET = re.compile(r"([?&;](?:token|ticket)=)[^&;#\s\"']*", re.IGNORECASE)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    return SECRET.sub(rf"\g<1>{REDACTED}", text)


def _clean(value):
    return redact(value) if isinstance(value, str) else value


class RedactSecrets(logging.Filter):
    """Rewrites the record's message and string arguments in place; drops nothing. The
    arguments keep their shape (uvicorn's AccessFormatter unpacks them by position)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_clean(v) for v in record.args)
        return True
