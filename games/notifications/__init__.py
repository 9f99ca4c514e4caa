"""Notifications (API.md "Notifications"): what a player is told, derived from a game's
committed events, pushed over `/ws/me/` and mailed. One idea per module:

- `models`: the notifications' tables;
- `derive`: events → notification rows, exactly once per (user, kind, game, seq) (a cursor per
  game, under its row lock, plus the unique constraint), and the `deadline_soon` reminders;
- `outbox`: mail rows claimed with a lease and sent at most once (immediate and digest);
- `mails`: the mails' text in the user's language, the unsubscribe token;
- `presence`: which game sockets are open (no mail for a game its player has open; the sockets
  beat through games.live.presence) and which tabs are visible (what is told about that game
  is born read, never mailed);
- `push`: the `/ws/me/` message after commit (the socket itself: games.live.me_consumer);
- `services`: preferences and reads for the API; `routes`: the REST views; `runner`: what is
  sent at commit and the sweeper (the deadline runner's loop calls it in `make run`); the
  Celery tasks are in `tasks`.
"""
