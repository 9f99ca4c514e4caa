"""Celery's tasks, where its autodiscovery looks (`games.tasks`): each feature keeps its own
(games.clock.tasks: deadlines and bot moves; games.notifications.tasks: derive, remind, mail,
sweep, digest), and importing them here registers them."""

from games.clock import tasks as clock_tasks
from games.notifications import tasks as notification_tasks
from games.odds import tasks as odds_tasks

__all__ = ["clock_tasks", "notification_tasks", "odds_tasks"]
