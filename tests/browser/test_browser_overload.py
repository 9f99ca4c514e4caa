"""Overload in the browser: a `503 unavailable` with Retry-After (docs/PRODUCTION.md,
Overload) is waited out and asked again by the page's one API door (api.js), instead of shown
as a failure."""

from __future__ import annotations

from tests.browser.ui import login, open_table


def test_the_table_waits_out_a_busy_answer_and_draws_the_game(live, open_page, make_player):
    alice, bob = make_player("alice"), make_player("bob")
    gid = alice.create_game(2)
    alice.join(gid, 0)
    bob.join(gid, 1)
    page = open_page("alice")
    login(page, alice)
    busy = []

    def first_busy(route) -> None:  # the first read of the view finds the service busy
        if not busy:
            busy.append(route.request.url)
            body = '{"error": {"code": "unavailable", "message": "the service is busy"}}'
            route.fulfill(status=503, headers={"Retry-After": "1"}, body=body,
                          content_type="application/json")  # fmt: skip
        else:
            route.continue_()

    page.route(f"**/api/games/{gid}/", first_busy)
    seq = open_table(page, gid)
    assert busy, "the view was read through the busy answer"
    assert seq == alice.view(gid)["seq"]
    assert page.locator("#error:visible, .error:visible").count() == 0
