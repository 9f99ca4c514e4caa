"""Notifications (API.md "Notifications"): what a player is told, derived from a game's
committed events, pushed over `/ws/me/` and mailed. One idea per module:

- `derive`: events → notification rows, exactly once per (user, kind, game, seq) (a cursor per
  game, under its row lock, plus the unique constraint), and the `deadline_soon` reminders;
- `outbox`: mail rows claimed with a lease and sent at most once (immediate and digest);
- `mails`: the mails' text in the user's language, the unsubscribe token;
- `presence`: which game sockets are open (no mail for a game its player has open);
- `push`: the `/ws/me/` message after commit; `consumer`: the `/ws/me/` socket;
- `service`: preferences and reads for the API; `apis`: the REST views; `runner`: scheduling
  at commit, the sweeper, and the thread of `make run`; the Celery tasks are in `tasks`.
"""
