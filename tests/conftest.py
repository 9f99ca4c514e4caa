"""Shared pytest setup, free of Django so that `pytest tests/engine -p no:django` imports none.

The Django fixtures live in tests/django_fixtures.py and load only when pytest-django is active
(every run but the engine's: see the Makefile's `test`).
"""

import pytest


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.has_plugin("django"):  # pytest-django's plugin name; -p no:django
        config.pluginmanager.import_plugin("tests.django_fixtures")
