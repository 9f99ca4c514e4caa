"""Disputes in the page (API.md "More pages"): a seated player disputes a moment
from the replay viewer (and from the table's log), finds it on /disputes/ with that seq and its
status, and is told in the bell when staff decide it in the Django admin, whose resolution
then shows on /disputes/ (also on `make run`'s SQLite). A spectator is offered no dispute
control. With
SEJMI_DOC_SCREENSHOTS=1 the form and the page are also saved to docs/screenshots/ at 1280×800
and 360 px, in both languages."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.browser.api import Player, wait_until
from tests.browser.ui import login, open_table, wait_drawn, wait_seq

ROOT = "#replay"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WORDS = {
    "en": {"open": "Dispute this moment", "reason": "Reason for the dispute",
           "send": "File the dispute", "done": "Dispute filed for event {seq}",
           "mine": "My disputes", "waiting": "Waiting for a decision", "resolved": "Resolved",
           "duplicate": "already disputed this moment", "empty": "Write the reason first.",
           "log_in": "Log in", "bell": "Staff decided your dispute about game {gid}",
           "first": "The first roll was not shown to me.", "second": "Still waiting on this one.",
           "resolution": "You are right: the roll is now shown in the log. Thanks!",
           "form": "The block window closed before my time was up."},
    "cs": {"open": "Podat námitku k tomuto okamžiku", "reason": "Důvod námitky",
           "send": "Odeslat námitku", "done": "Námitka k události {seq} je podaná",
           "mine": "Moje námitky", "waiting": "Čeká na rozhodnutí", "resolved": "Vyřešeno",
           "duplicate": "K tomuto okamžiku už námitku máš", "empty": "Nejdřív napiš důvod.",
           "log_in": "Přihlásit se", "bell": "Správci rozhodli o tvé námitce ke hře {gid}",
           "first": "První hod kostkou se mi neukázal.", "second": "Tady pořád čekám.",
           "resolution": "Máš pravdu: hod je teď v průběhu hry vidět. Díky!",
           "form": "Okno pro blokování se zavřelo dřív, než mi vypršel čas."},
}  # fmt: skip


def seated_game(player: Player) -> int:
    """`player` at seat 0 against the bot at seat 1, on turn first: a few events, waiting."""
    gid = player.create_game(2, rig={"first": 0}, bots=[1])
    player.join(gid, 0)
    wait_until(lambda: player.view(gid)["phase"] == "play", what="the first turn")
    return gid


def open_replay(page, gid: int, at: int) -> None:
    page.goto(f"/games/{gid}/replay/?at={at}")
    wait_seq(page, at, root=ROOT)


def file_dispute(page, words: dict, reason: str, seq: int, opened: bool = False) -> None:
    """Open the form (unless `opened`), write the reason, send it; wait for the page to say
    it is filed."""
    if not opened:
        page.get_by_role("button", name=words["open"], exact=True).click()
    page.get_by_label(words["reason"], exact=True).fill(reason)
    page.get_by_role("button", name=words["send"], exact=True).click()
    page.locator(".dispute-done").get_by_text(words["done"].format(seq=seq)).wait_for()


def decide_in_admin(page, dispute_id: int, resolution: str) -> None:
    """Staff resolve the dispute through the admin's change form (replays/disputes/admin.py)."""
    page.goto(f"/admin/replays/dispute/{dispute_id}/change/")
    page.select_option("select[name=status]", "resolved")
    page.fill("textarea[name=resolution]", resolution)
    page.click("input[name=_save]")
    page.wait_for_url(re.compile(r"/admin/replays/dispute/(\?.*)?$"))


def admin_login(page, staff: Player) -> None:
    page.goto("/admin/login/")
    page.fill("input[name=username]", staff.username)
    page.fill("input[name=password]", "cards-on-the-table-42")
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r"/admin/$"))


def mine(player: Player) -> list[dict]:
    return player.get("/api/disputes/")["disputes"]


@pytest.mark.parametrize("lang", ["en", "cs"])
def test_a_seated_player_disputes_a_moment_from_the_replay_and_sees_it_listed(
    lang, make_player, open_page
):
    words = WORDS[lang]
    eva = make_player("eva")
    gid = seated_game(eva)
    page = open_page(f"eva-{lang}", lang=lang)
    login(page, eva, button=words["log_in"])
    open_replay(page, gid, 3)

    page.get_by_role("button", name=words["open"], exact=True).click()
    page.get_by_role("button", name=words["send"], exact=True).click()  # no reason yet
    page.locator(".dispute-error").get_by_text(words["empty"]).wait_for()
    assert mine(eva) == []
    page.get_by_role("button", name=words["open"], exact=True).click()  # closes it again
    assert page.locator("#dispute-form").is_hidden()

    file_dispute(page, words, "The bot played twice in a row here.", seq=3)
    done = page.locator(".dispute-done").get_by_role("link", name=words["mine"])
    assert done.get_attribute("href") == "/disputes/"
    [filed] = mine(eva)
    assert (filed["game"], filed["seq"], filed["status"]) == (gid, 3, "open")
    assert filed["reason"] == "The bot played twice in a row here."
    # The same moment again: the API's 409 duplicate, said in the page's language.
    page.get_by_label(words["reason"], exact=True).fill("Once more.")
    page.get_by_role("button", name=words["send"], exact=True).click()
    page.locator(".dispute-error").get_by_text(words["duplicate"]).wait_for()
    assert len(mine(eva)) == 1

    page.locator(".dispute-error").get_by_role("link", name=words["mine"]).click()
    page.wait_for_url(re.compile(r"/disputes/$"))
    row = page.locator(f'#my-disputes [data-dispute="{filed["id"]}"]')
    assert row.get_attribute("data-seq") == "3" and row.get_attribute("data-status") == "open"
    assert row.locator("[data-role=status]").inner_text().strip() == words["waiting"]
    assert "The bot played twice in a row here." in row.locator("[data-role=reason]").inner_text()
    link = row.get_by_role("link", name=re.compile(str(gid)))
    assert link.get_attribute("href") == f"/games/{gid}/replay/?at=3"


def test_a_spectator_is_offered_no_dispute_control(make_player, open_page):
    eva, carl = make_player("eva"), make_player("carl")
    gid = seated_game(eva)
    page = open_page("carl")
    login(page, carl)
    for path in (f"/games/{gid}/replay/?at=3", f"/games/{gid}/"):
        page.goto(path)
        wait_drawn(page, ROOT if "replay" in path else "#table")
        page.wait_for_timeout(300)  # the scripts have run
        assert page.locator("#dispute").count() == 0
        assert page.get_by_role("button", name=WORDS["en"]["open"]).count() == 0
    anonymous = open_page("anonymous")
    anonymous.goto(f"/games/{gid}/replay/?at=3")
    wait_drawn(anonymous, ROOT)
    assert anonymous.get_by_role("button", name=WORDS["en"]["open"]).count() == 0


def test_a_seated_player_disputes_from_the_tables_log(make_player, open_page):
    eva = make_player("eva")
    gid = seated_game(eva)
    page = open_page("eva-table")
    login(page, eva)
    seq = open_table(page, gid)
    log = page.locator(".log-area")
    log.get_by_role("button", name="Dispute this moment", exact=True).click()
    assert f"event {seq}" in log.locator(".dispute-moment").inner_text()
    file_dispute(page, WORDS["en"], "My hand looked wrong at the deal.", seq=seq, opened=True)
    assert [(d["seq"], d["status"]) for d in mine(eva)] == [(seq, "open")]
    earlier = log.get_by_role("link", name=re.compile("Another moment"))
    assert earlier.get_attribute("href") == f"/games/{gid}/replay/?at={seq}"


@pytest.mark.parametrize(
    ("lang", "site"),
    [("en", "postgresql"), ("cs", "postgresql"), ("en", "sqlite")],
    indirect=["site"],
)  # and on make run's SQLite
def test_staff_decide_and_the_player_is_told_and_reads_the_resolution(
    lang, site, make_player, open_page
):
    words = WORDS[lang]
    eva, referee = make_player("eva"), make_player("referee")
    site.make_staff(referee.username)
    gid = seated_game(eva)
    page = open_page(f"eva-{lang}", lang=lang)
    login(page, eva, button=words["log_in"])
    open_replay(page, gid, 2)
    file_dispute(page, words, words["first"], seq=2)
    open_replay(page, gid, 4)
    file_dispute(page, words, words["second"], seq=4)
    by_seq = {d["seq"]: d["id"] for d in mine(eva)}  # ids are random: they count nothing
    decided_id, open_id = by_seq[2], by_seq[4]
    eva.post("/api/notifications/read/", {"all": True})  # her turn's, told at the start
    page.goto("/disputes/")
    page.wait_for_function("() => window.__ws.sockets.some(s => s.url.endsWith('/ws/me/') "
                           "&& s.readyState === 1)")  # fmt: skip
    assert page.locator(".bell__count").get_attribute("data-unread") == "0"

    staff = open_page("referee")
    admin_login(staff, referee)
    resolution = words["resolution"]
    decide_in_admin(staff, decided_id, resolution)

    # Eva's bell counts it live (/ws/me/), and links it to /disputes/.
    page.wait_for_function("() => document.querySelector('.bell__count').dataset.unread === '1'")
    page.locator(".bell__button").click()
    told = page.locator('.bell__list a[href="/disputes/"]')
    assert words["bell"].format(gid=gid) in told.inner_text()
    [note] = [n for n in eva.get("/api/notifications/")["notifications"]
              if n["kind"] == "dispute_decided"]  # fmt: skip
    assert (note["game"], note["seq"], note["read"]) == (gid, 2, False)

    page.goto("/notifications/")  # the page of them all links it to /disputes/ too
    listed = page.locator('#notifications [data-kind="dispute_decided"] a[href="/disputes/"]')
    assert words["bell"].format(gid=gid) in listed.inner_text()
    page.goto("/disputes/")
    rows = page.locator("#my-disputes > li")
    assert [rows.nth(i).get_attribute("data-dispute") for i in range(2)] == [
        str(open_id), str(decided_id)]  # newest first  # fmt: skip
    decided = page.locator(f'[data-dispute="{decided_id}"]')
    assert decided.get_attribute("data-status") == "resolved"
    assert decided.locator("[data-role=status]").inner_text().strip() == words["resolved"]
    assert resolution in decided.locator("[data-role=resolution]").inner_text()
    still = page.locator(f'[data-dispute="{open_id}"]')
    assert still.locator("[data-role=resolution]").count() == 0
    assert still.locator("[data-role=status]").inner_text().strip() == words["waiting"]

    shots(page, lang, gid)


def shots(page, lang: str, gid: int) -> None:
    """/disputes/ (one decided, one open) and the replay's form open, at 1280×800 and 360 px:
    nothing wider than the screen; saved to docs/screenshots/ when asked for."""
    save = os.environ.get("SEJMI_DOC_SCREENSHOTS") == "1"
    DOCS.mkdir(exist_ok=True)
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 800})
        pages = (("disputes", "/disputes/"), ("replay-form", f"/games/{gid}/replay/?at=5"))
        for name, path in pages:
            page.goto(path)
            if name == "replay-form":
                wait_seq(page, 5, root=ROOT)
                page.get_by_role("button", name=WORDS[lang]["open"], exact=True).click()
                page.get_by_label(WORDS[lang]["reason"], exact=True).fill(WORDS[lang]["form"])
                page.locator("#dispute-form").scroll_into_view_if_needed()
            page.wait_for_function(
                "() => document.querySelector('.bell__count').dataset.unread === '1'"
            )  # the bell has read its list
            wide = page.evaluate("() => document.documentElement.scrollWidth")
            assert wide <= width, f"{name} at {width} px scrolls sideways ({wide} px)"
            if save:
                page.screenshot(path=DOCS / f"{name}-{lang}-{width}.png",
                                full_page=name == "disputes")  # fmt: skip
