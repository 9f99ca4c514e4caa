"""What the tests share that is not a fixture: clients, game builders, the real processes
(servers, a standby, PgBouncer) and the checkers. Fixtures live in conftest files
(tests/django_fixtures.py for every Django test, a folder's conftest.py for its own)."""
