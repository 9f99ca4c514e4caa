"""Browser tests: headless Chromium through Python Playwright against a live service.

Session-wide: one service (tests/browser/live.py: its own database, uvicorn on a free port;
the fixtures `live`, `live_sqlite` and `site` of tests/conftest.py) and one Chromium. The pages
are opened on `site`: PostgreSQL, or `make run`'s SQLite for a test parametrized with it. Per
test: browser contexts made with `open_page`, each a separate person (cookies, language); at the
end of the test every page still open is saved as a screenshot in tests/browser/screenshots/
and every context is closed.

Without /usr/bin/chromium these tests are skipped, except in CI (CI=true), where .ci/run
installs it and a missing browser is a failure.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.api import Player, play_out, register
from tests.browser.ui import INIT_SCRIPT, SHOTS

HERE = Path(__file__).resolve().parent
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
LANGUAGES = {"en": ("en-US", "en-US,en;q=0.9"), "cs": ("cs-CZ", "cs")}


def pytest_collection_modifyitems(config, items) -> None:
    if CHROMIUM.exists() or IN_CI:
        return
    skip = pytest.mark.skip(
        reason=f"no headless Chromium at {CHROMIUM} (apt-get install "
        "chromium; .ci/run does it, and in CI this is a failure)"
    )
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():  # only reached in CI: elsewhere the tests were skipped
        pytest.fail(f"CI needs Chromium at {CHROMIUM}: .ci/run installs the chromium package")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def finished_game(live) -> tuple[int, Player]:
    """A short game that has ended (its host at seat 0, two bots), for the replay viewer."""
    host = register(live.base, "host")
    gid = host.create_game(3, rig={"lives": [3, 3, 3]}, bots=[1, 2])
    host.join(gid, 0)
    play_out(gid, [host], random.Random(3), timeout=90)
    return gid, host


@pytest.fixture
def make_player(site) -> Callable[..., Player]:
    """make_player(stem="p") → a freshly registered Player with a token client on `site`."""
    made: list[Player] = []

    def make(stem: str = "p") -> Player:
        made.append(register(site.base, stem))
        return made[-1]

    yield make
    for player in made:
        player.http.close()


@pytest.fixture
def open_page(browser, site, request):
    """open_page(label, lang="en", motion="no-preference", scheme="light") → a new page in a
    context of its own (a person), its language set both by the browser locale and by
    Accept-Language, `motion="reduce"` asking for reduced motion, `scheme` the system's colour
    scheme (the pages follow it). Uncaught JavaScript
    errors fail the test; each page still open at the end is saved as a screenshot."""
    opened: list[tuple[str, object, list[str]]] = []

    def open_(
        label: str = "page", lang: str = "en", motion: str = "no-preference", scheme: str = "light"
    ):
        locale, accept = LANGUAGES[lang]
        context = browser.new_context(
            base_url=site.base,
            locale=locale,
            extra_http_headers={"Accept-Language": accept},
            viewport={"width": 1280, "height": 900},
            reduced_motion=motion,
            color_scheme=scheme,
        )
        context.set_default_timeout(10_000)
        context.add_init_script(INIT_SCRIPT)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(f"{label}: {exc}"))
        opened.append((label, context, errors))
        return page

    yield open_
    SHOTS.mkdir(exist_ok=True)
    test = re.sub(r"[^\w.-]+", "_", request.node.name)
    errors = [e for _, _, errs in opened for e in errs]
    for label, context, _ in opened:
        for n, page in enumerate(context.pages):
            suffix = f"-{n}" if n else ""
            try:
                page.screenshot(path=SHOTS / f"{test}-{label}{suffix}.png", full_page=True)
            except Exception as exc:  # a crashed page must not hide the test's own result
                print(f"screenshot of {label} failed: {exc}")
        context.close()
    assert not errors, "uncaught JavaScript errors in the pages:\n" + "\n".join(errors)
