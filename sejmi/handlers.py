"""`make run`'s HTTP handler (SQLite): every request's sync code on one long-lived thread."""

import django
from django.core.handlers.asgi import ASGIHandler


def http_app() -> ASGIHandler:
    """Django's ASGI app, as `django.core.asgi.get_asgi_application` builds it, with one
    handler built: `make run`'s (SQLite) runs its views on one thread, elsewhere Django's own."""
    django.setup(set_prefix=False)
    from django.db import connection  # after setup: the settings name the database

    return ViewsOnOneThread() if connection.vendor == "sqlite" else ASGIHandler()


class ViewsOnOneThread(ASGIHandler):
    """Django runs each request's sync code (middleware and views) in a thread of its own: a
    ThreadSensitiveContext per request, so a new thread each time. A database connection lives
    in its thread, so with SQLite every request opened the file, ran its pragmas and closed it
    again (issue 31: about 4 % of `make run`'s CPU, besides the thread's own start and end).
    Without that context asgiref runs the sync code of every request on its one sync thread,
    where the connection lives on (CONN_MAX_AGE None for SQLite: sejmi.databases).

    The cost: one request's sync code at a time. With SQLite's one writer and the GIL, a
    newcomer's `make run` hardly ran two at once anyway; production (PostgreSQL) keeps Django's
    own handler, its pool and its concurrent requests."""

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":  # Django's own refusal
            await super().__call__(scope, receive, send)
            return
        await self.handle(scope, receive, send)
