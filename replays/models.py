"""Models come with the event store."""
