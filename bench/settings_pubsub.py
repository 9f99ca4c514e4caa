"""sejmi.settings with channels_redis's pub/sub channel layer instead of its core (list-based)
layer: an experiment of bench-load (`--layer pubsub`), not a shipped configuration.

Why try it: the core layer drains a process's messages one at a time, four Redis round trips
each (a clean-up script, BZPOPMIN, a backup ZADD, then its ZPOPMIN), and keeps group membership
in Redis keys that a Redis restart loses and that expire after a day (`group_expiry`). The
pub/sub layer has one subscription per group per process, which redis-py subscribes again after
a reconnect. docs/RELIABILITY.md compares the two.
"""

from sejmi.settings import *  # noqa: F403
from sejmi.settings import REDIS_URL

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL]},
    },
}
