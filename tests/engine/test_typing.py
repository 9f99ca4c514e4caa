"""The engine is fully typed: mypy finds nothing in games/engine (STYLE: mypy on the engine).

mypy runs in a process of its own: pyproject's config loads the django-stubs plugin, which sets
Django up, and the engine's tests run with no Django at all."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_engine() -> None:
    config = str(ROOT / "pyproject.toml")
    engine = str(ROOT / "games" / "engine")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", engine, "--config-file", config,
         "--cache-dir", "/tmp/sejmi-mypy"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
