"""Sockets left behind by a lost broadcast catch up from the log, without waiting for the next
move or for their client to ask.

The layer delivers at most once: a batch published while a process's subscription was down (a
Redis restart) or whose publish failed never reaches that process's sockets. They healed at
the game's next batch (its gap is filled from the log), which in a correspondence game may be
a day away: a player was not shown that it is his turn (bench-faults: 124 sockets fell silent
behind their game after a Redis restart). Every CATCH_UP_S each web process compares the last
seq its live sockets sent with their games' heads, in one statement, and tells each socket
behind a head older than SETTLED (its broadcast had time to arrive) to send what it lacks,
in turn with whatever its outbox holds, so nothing is sent twice
(games.live.consumer.GameConsumer.behind).

A spectator of a delayed game is not watched: his stream runs behind the head on purpose.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Protocol

from django.utils import timezone

from games.core.models import GameProjection
from games.live.registry import EachLoop
from games.live.socket_db import socket_db

log = logging.getLogger(__name__)

CATCH_UP_S = 5.0
SETTLED = timedelta(seconds=2)


class Watched(Protocol):
    game_id: int
    last_sent: int
    channel_name: str

    def behind(self, head: int) -> None: ...


def enter(socket: Watched) -> None:
    SOCKETS.enter(socket.channel_name, socket)


def leave(socket: Watched) -> None:
    SOCKETS.leave(socket.channel_name)


def settled_heads(game_ids: list[int]) -> dict[int, int]:
    """The head seq of each game whose last batch is older than SETTLED."""
    rows = GameProjection.objects.filter(game_id__in=game_ids,
                                         updated_at__lte=timezone.now() - SETTLED)  # fmt: skip
    return dict(rows.values_list("game_id", "seq"))


async def once(open_: dict[str, Watched]) -> int:
    """One look: tell every socket behind its game's settled head; returns how many."""
    sockets = list(open_.values())
    if not sockets:
        return 0
    heads = await socket_db(settled_heads)(sorted({s.game_id for s in sockets}))
    behind = [(s, heads[s.game_id]) for s in sockets if heads.get(s.game_id, 0) > s.last_sent]
    for socket, head in behind:
        socket.behind(head)
    return len(behind)


async def _look(open_: dict[str, Watched]) -> None:
    if told := await once(open_):
        log.info("%s sockets behind their game's head were told to catch up", told)


SOCKETS = EachLoop(CATCH_UP_S, _look)
