"""Away from a seat in the browser (issue 10): the vacation badge next to a name on the table,
the vacation controls of /me/ (start, until, days left, end now), and "Leave game" (with its
confirm) telling the other player's page live."""

from __future__ import annotations

from tests.browser.ui import login, open_table


def test_vacation_badge_controls_and_leaving(live, open_page, make_player):
    alice, bob = make_player("alice"), make_player("bob")
    gid = alice.create_game(2)
    alice.join(gid, 0)
    bob.join(gid, 1)
    bob.post("/api/me/vacation/", {"days": 3})

    seen = open_page("alice")
    login(seen, alice)
    open_table(seen, gid)
    badge = seen.locator('[data-seat="1"] .mark-away-vacation')
    badge.wait_for()
    assert "on vacation until" in badge.inner_text()

    page = open_page("bob")
    login(page, bob)
    page.goto("/me/")
    state = page.locator("#vacation-state")
    state.wait_for()
    page.wait_for_function("() => document.querySelector('#vacation-state').textContent !== ''")
    assert "On vacation until" in state.inner_text()
    assert "27 of 30" in page.locator("#vacation-left").inner_text()
    page.get_by_role("button", name="End vacation now", exact=True).click()
    page.wait_for_function(
        "() => document.querySelector('#vacation-state').textContent.includes('not on vacation')"
    )
    assert page.get_by_role("button", name="Start vacation", exact=True).is_visible()
    assert "30 of 30" in page.locator("#vacation-left").inner_text()  # ended in seconds: free
    badge.wait_for(state="detached")  # alice's table follows live

    open_table(page, gid)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Leave game", exact=True).click()
    # Asked in the page (issue 29): "Stay" keeps the seat, "Yes, leave the game" leaves.
    page.get_by_role("button", name="Stay", exact=True).click()
    assert bob.view(gid)["players"][1]["left"] is False
    page.get_by_role("button", name="Leave game", exact=True).click()
    assert "for good" in page.inner_text(".leave-confirm")
    page.get_by_role("button", name="Yes, leave the game", exact=True).click()
    assert dialogs == [], "no browser confirm box"
    page.locator('[data-seat="1"] .mark-left').wait_for()
    assert page.get_by_role("button", name="Leave game", exact=True).count() == 0
    seen.locator('[data-seat="1"] .mark-left').wait_for()
    seen.locator("#log", has_text="leaves the game").wait_for()
    assert bob.view(gid)["players"][1]["left"] is True
    page.goto("/me/")
    page.locator("#vacation-state").wait_for()
