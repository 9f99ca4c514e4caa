"""The engine stays pure: importable and usable without Django, DRF, Channels, Celery or Redis."""

import subprocess
import sys

FORBIDDEN = ("django", "rest_framework", "channels", "celery", "redis")


def test_engine_imports_no_framework() -> None:
    code = (
        "import sys, games.engine, games.engine.bench, games.engine.simulate\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_standard_deck_is_the_rule_sheets_deck_card_for_card() -> None:
    """The deck shipped in the package equals ../shared/rules/standard-deck.csv (issue 2)."""
    import csv
    from pathlib import Path

    from games.engine import load_deck

    shared = Path(__file__).resolve().parents[3] / "shared" / "rules" / "standard-deck.csv"
    if shared.is_file():
        with shared.open(newline="") as f:
            rows = [row for row in csv.reader(f)][1:]
        assert load_deck("standard").rows() == [r for r in rows if r]
    deck = load_deck("standard")
    assert len(deck.cards) == 40 and deck.card("C17").effects[0].kind == "SWAP_NEIGHBOR"
