"""Issue 29: the rules the pages' scripts mirror from Python say the same as the Python.

- static/frontend/shared/names.js `seatName` against games/engine/names.py `seat_name` (a person,
  a bot as "bot#<seat>", a free seat);
- static/frontend/shared/times.js `duration` against frontend/time_words.py `duration`, in English
  and Czech, over the boundaries of every unit.

Node runs the modules as they ship (ES modules, the page language stubbed as <html lang>);
without node the test is skipped, in CI (CI=true) it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from frontend.time_words import duration
from games.engine.names import seat_name

STATIC = Path(__file__).resolve().parents[2] / "frontend" / "static" / "frontend" / "shared"
SECONDS = [0, 1, 59, 60, 61, 119, 3599, 3600, 3601, 3660, 3900, 86399, 86400, 90000, 183600,
           2592000, 1.7, -5]  # fmt: skip
SEATS = [
    {"seat": 0, "username": "eva", "bot": False},
    {"seat": 2, "username": "bot", "bot": True},
    {"seat": 3, "username": None, "bot": False},
    {"seat": 5, "username": "bot", "bot": True},
]

SCRIPT = """
const [lang, base, raw] = process.argv.slice(1); // with -e there is no script path
globalThis.document = {
  documentElement: { lang }, querySelectorAll: () => [], getElementById: () => null,
};

const { seatName } = await import(base + "/names.js");
const { duration } = await import(base + "/times.js");
const input = JSON.parse(raw);
console.log(JSON.stringify({
  names: input.seats.map(seatName),
  durations: input.seconds.map(duration),
}));
"""


def run_node(lang: str) -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail("CI needs node to check the scripts' mirrors")
        pytest.skip("no node")
    payload = json.dumps({"seats": SEATS, "seconds": SECONDS})
    out = subprocess.run(
        [node, "--input-type=module", "-e", SCRIPT, lang, STATIC.as_uri(), payload],
        capture_output=True, text=True, timeout=30, check=True,
    )  # fmt: skip
    return json.loads(out.stdout)


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_times_js_words_durations_as_time_words_does(lang):
    shown = run_node(lang)["durations"]
    expected = [duration(int(max(0, s)), lang) for s in SECONDS]
    assert shown == expected


def test_names_js_names_seats_as_engine_names_does():
    shown = run_node("en")["names"]
    expected = [seat_name(s["username"], bot=s["bot"], seat=s["seat"]) for s in SEATS]
    assert shown == expected
