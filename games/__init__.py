"""Games: event store, projections, services, API and websockets."""
