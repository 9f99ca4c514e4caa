"""Where Django's admin looks for the app's admin: the disputes' queue and case file
(replays/disputes/admin.py) register on import."""

from replays.disputes import admin  # noqa: F401
