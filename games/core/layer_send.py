"""Sending to a channel-layer group from synchronous code: the one way every broadcast goes
(committed batches, sealed passes, chat, notification pushes). With Redis (every deployment)
the calling thread publishes itself (games.core.pubsub.PubSubLayer.publish): no hop to an
event loop, no loop or connection made per call. `make run`'s in-memory layer has no Redis:
there async_to_sync does it.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.core.pubsub import PubSubLayer


def group_send(group: str, message: dict[str, Any]) -> None:
    """Send `message` to `group` and return once the layer has it (raises if it failed)."""
    layer = get_channel_layer()
    if isinstance(layer, PubSubLayer):
        layer.publish(group, message)
    else:
        async_to_sync(layer.group_send)(group, message)
