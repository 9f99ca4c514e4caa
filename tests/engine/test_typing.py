"""The engine is fully typed: mypy finds nothing in games/engine (STYLE: mypy on the engine)."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[2]


def test_mypy_finds_no_error_in_the_engine() -> None:
    out, err, status = api.run([str(ROOT / "games" / "engine"), "--config-file",
                                str(ROOT / "pyproject.toml"), "--cache-dir", "/tmp/sejmi-mypy"])  # fmt: skip
    assert status == 0, out + err
