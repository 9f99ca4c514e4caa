"""What talks to the service as its users do: bench players with tokens over HTTP, bench-load's
tables and their sockets' stream checks, the observer that watches a run from outside, and the
probe scripts added to the pages in Chromium."""
