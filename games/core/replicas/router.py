"""The database router (settings.DATABASE_ROUTERS): a read under `read_lagging` goes to the
replica it picked; everything else is the primary's. With no replica configured it changes
nothing (every answer None: Django's own choice)."""

from __future__ import annotations

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

from games.core.replicas import reads

# Who is asking (the session, the token) is always read on the primary: one made a moment
# ago must count.
WHO_ASKS = frozenset({"sessions", "authtoken"})


class ReplicaRouter:
    def db_for_read(self, model, **hints):
        if model._meta.app_label not in WHO_ASKS:
            replica = reads.replica_for_read()
            if replica is not None:
                return replica
        return _off_the_replicas(hints)

    def db_for_write(self, model, **hints):
        reads.noted_write()
        return _off_the_replicas(hints)

    def allow_relation(self, obj1, obj2, **hints):
        """A row read on a replica is the primary's row: they may be related."""
        same = {DEFAULT_DB_ALIAS, *settings.DATABASE_REPLICAS}
        return True if {obj1._state.db, obj2._state.db} <= same else None

    def allow_migrate(self, db, app_label, model_name=None, **hints):
        return False if db in settings.DATABASE_REPLICAS else None


def _off_the_replicas(hints) -> str | None:
    """A row read on a replica is written, and its relations read, on the primary (Django would
    follow the row to where it was read)."""
    instance = hints.get("instance")
    if instance is not None and instance._state.db in settings.DATABASE_REPLICAS:
        return DEFAULT_DB_ALIAS
    return None
