"""sejmi.settings with channels_redis's core (list-based) channel layer instead of the shipped
pub/sub one: a comparison for bench-load (`--layer core`), not a shipped configuration.

Why the shipped layer is pub/sub: the core layer keeps group membership in Redis keys, which a
Redis restart loses (sockets fall silent until they resync) and which expire after
`group_expiry` (a day: a correspondence socket stops hearing its game), and drains a process's
messages one at a time, four Redis round trips each. docs/RELIABILITY.md compares the two.
"""

from sejmi.settings import *  # noqa: F403
from sejmi.settings import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "capacity": 1000, "expiry": 60},
    },
}
