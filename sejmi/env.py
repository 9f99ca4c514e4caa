"""Reading settings from the environment (sejmi.settings, sejmi.databases)."""

import os


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean env var: 1/true/yes/on are true, anything else false."""
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    """Read a comma-separated env var into a list, skipping empty items."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]
