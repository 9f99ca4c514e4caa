"""The engine is fully typed: mypy finds nothing in games/engine (STYLE: mypy on the engine)."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_engine() -> None:
    config = str(ROOT / "pyproject.toml")
    engine = str(ROOT / "games" / "engine")
    out, err, status = api.run([engine, "--config-file", config, "--cache-dir", "/tmp/sejmi-mypy"])
    assert status == 0, out + err
