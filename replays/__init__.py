"""Replays: reading finished and running games back event by event."""
