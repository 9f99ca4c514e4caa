"""Issue 8, test 3: the replay viewer scrubbed to an earlier seq shows that moment's lives and
discard pile (as GET /api/games/{id}/replay/?at= has them); the arrow keys and the Back /
Forward buttons step; the URL follows the position, and a shared URL opens at its seq."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from tests.browser.api import public
from tests.browser.ui import pile, seat_lives, wait_seq

ROOT = "#replay"
SCRUB = """(el, value) => {
  el.value = String(value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
}"""


def moment(base: str, gid: int, seq: int) -> dict:
    return public(base, f"/api/games/{gid}/replay/", at=seq)


def earlier_seq(base: str, gid: int, last: int) -> int:
    """A seq in the game's second half whose lives differ from the end and whose discard pile
    is not empty: a moment the viewer cannot show by accident."""
    lives = lambda view: [p["lives"] for p in view["players"]]  # noqa: E731
    end = lives(moment(base, gid, last))
    for seq in range(last // 2, last - 1):
        view = moment(base, gid, seq)
        if view["discard"] and lives(view) != end:
            return seq
    raise AssertionError("no moment worth scrubbing to in the finished game")


def assert_shows(page, view: dict) -> None:
    wait_seq(page, view["seq"], root=ROOT)
    assert seat_lives(page, ROOT) == {p["seat"]: p["lives"] for p in view["players"]}
    assert pile(page, f"{ROOT} #discard") == view["discard"]
    at = parse_qs(urlparse(page.url).query).get("at")
    assert at == [str(view["seq"])], f"the URL does not follow: {page.url}"


def test_replay_viewer_scrubs_steps_and_the_url_follows(live, finished_game, open_page):
    gid, host = finished_game
    last = host.view(gid)["seq"]
    seq = earlier_seq(live.base, gid, last)
    page = open_page("viewer")
    page.goto(f"/games/{gid}/replay/?at={last}")
    assert_shows(page, moment(live.base, gid, last))
    hands = set().union(*map(set, moment(live.base, gid, last)["hands"]))
    shown = set(
        page.eval_on_selector_all(
            f"{ROOT} [data-card]",
            "els => els.filter(e => !e.closest('#discard, #pending, #log'))"
            ".map(e => e.dataset.card)",
        )
    )
    assert shown == hands, "after the end the viewer shows every hand (R23)"

    scrubber = page.locator("#scrubber")
    assert scrubber.get_attribute("max") == str(last), "the scrubber's values are seqs"
    scrubber.evaluate(SCRUB, seq)
    assert_shows(page, moment(live.base, gid, seq))

    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    assert_shows(page, moment(live.base, gid, seq + 1))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert_shows(page, moment(live.base, gid, seq - 1))
    page.get_by_role("button", name="Forward", exact=True).click()
    assert_shows(page, moment(live.base, gid, seq))
    page.get_by_role("button", name="Back", exact=True).click()
    assert_shows(page, moment(live.base, gid, seq - 1))

    page.goto(f"/games/{gid}/replay/?at={seq}")  # a shared link opens at its moment
    assert_shows(page, moment(live.base, gid, seq))
