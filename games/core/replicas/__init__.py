"""Streaming replicas for the reads that may lag (DATABASE_REPLICA_URLS; docs/PRODUCTION.md,
"Read replicas").

A Django router sees a model, never the request, so which reads may lag is said where the
request is known: a view (or a part of one) runs under `lagging_reads_ok` / `read_lagging`
(`reads`), and only then does the router (`router`) send its reads to a replica that `health`
judges fresh. Everything else — a player's own reads, a command's path, every write and every
transaction — stays on the primary, so a player never sees a state older than one he has seen.
"""

from games.core.replicas.reads import configured, lagging_reads_ok, read_lagging

__all__ = ["configured", "lagging_reads_ok", "read_lagging"]
