"""Notifications (API.md "Notifications"): what a player is told, derived from a game's
committed events, pushed over `/ws/me/` and mailed. One idea per module:

- `models`: the notifications' tables;
- `derive`: events → notification rows, exactly once per (user, kind, game, seq) (a cursor per
  game, under its row lock, plus the unique constraint), and the `deadline_soon` reminders;
- `outbox`: mail rows claimed with a lease and sent at most once (immediate and digest);
- `kinds`: the one table of kinds: words in English and Czech, link, mail subject, push title
  and urgency (read by the mails, the pages, the bell and the pushes);
- `mails`: the mails in the user's language, the unsubscribe token;
- `presence`: which game sockets are open (no mail for a game its player has open; the sockets
  beat through games.live.presence) and which tabs are visible (what is told about that game
  is born read, never mailed);
- `push`: the `/ws/me/` message after commit (the socket itself: games.live.me_consumer);
- `web_push`: what is Web-Pushed to whom after commit (the transport: games.webpush);
- `services`: preferences and reads for the API; `routes`: the REST views; `runner`: what is
  sent at commit and the sweeper (the deadline runner's loop calls it in `make run`); the
  Celery tasks are in `tasks`.
"""
